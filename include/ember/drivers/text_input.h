/* The part every text input device shares: EFI_SIMPLE_TEXT_INPUT_PROTOCOL (UEFI 2.10, 12.3)
 * and EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL (12.2) over one queue of keys, with WaitForKey,
 * SetState and key notifications. A device embeds struct text_input, gives a poll function
 * that turns its input into keys with text_input_push(), and installs ti->in and ti->in_ex
 * on its handle. Used by the serial terminal, the PS/2 keyboard, the console splitter and
 * ember-run's console. */
#ifndef EMBER_TEXT_INPUT_H
#define EMBER_TEXT_INPUT_H

#include <stdbool.h>
#include <ember/lib/util.h>
#include <efi/protocol/simple_text_input_ex.h>

#define TEXT_INPUT_QUEUE_SIZE 64
#define TEXT_INPUT_NOTIFY_QUEUE_SIZE 16
/* How often devices that must be watched are polled (100 ns units): 10 ms. */
#define TEXT_INPUT_POLL_100NS (10 * 10000)

struct text_input;
struct term_key;

struct text_input_ops {
	/* Moves the device's waiting input into the queue; called at TPL_NOTIFY. */
	void (*poll)(struct text_input *ti);
	/* Optional: the device's part of Reset, after the queue was emptied (TPL_NOTIFY). */
	EFI_STATUS (*reset)(struct text_input *ti, bool extended_verification);
	/* Optional: SetState's new toggle state, e.g. for keyboard lights (TPL_NOTIFY). */
	EFI_STATUS (*set_state)(struct text_input *ti, EFI_KEY_TOGGLE_STATE state);
};

/* A RegisterKeyNotify registration; its address is the NotifyHandle. */
struct text_input_notify {
	UINT32 signature;
	struct text_input_notify *next;
	EFI_KEY_DATA key;
	EFI_KEY_NOTIFY_FUNCTION function;
};

struct text_input {
	UINT32 signature;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL in;
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL in_ex;
	const struct text_input_ops *ops;
	bool poll_always; /* polled by a timer all the time, not only for notifications */
	/* Reset leaves queued keys alone (input fed ahead of time, like a script on a pipe). */
	bool reset_keeps_keys;
	EFI_KEY_TOGGLE_STATE toggle_state; /* reported with every key */
	EFI_KEY_DATA queue[TEXT_INPUT_QUEUE_SIZE];
	UINT32 head, count;
	struct text_input_notify *notifies;
	/* Keys whose notifications are due. */
	EFI_KEY_DATA notify_keys[TEXT_INPUT_NOTIFY_QUEUE_SIZE];
	UINT32 notify_count;
	EFI_EVENT poll_timer;	/* reads input while it must be watched */
	EFI_EVENT notify_event; /* calls the notification functions at TPL_CALLBACK */
};

/* Fills in the protocols and creates the events. With poll_always the device is polled
 * every TEXT_INPUT_POLL_100NS; otherwise only when someone asks for keys and while key
 * notifications are registered. */
EFI_STATUS text_input_init(struct text_input *ti, const struct text_input_ops *ops,
			   bool poll_always);
/* Closes the events and frees the registrations (the protocols must be uninstalled). */
void text_input_fini(struct text_input *ti);

/* Queues a key and schedules the notifications it matches; false when the queue is full
 * and the key was dropped. Call at TPL_NOTIFY (from the poll function). */
bool text_input_push(struct text_input *ti, const EFI_KEY_DATA *key);
/* Queues keys decoded by lib/term_keys.c, with the current toggle state; those that find
 * the queue full are dropped. Call at TPL_NOTIFY. */
void text_input_push_term_keys(struct text_input *ti, const struct term_key *keys, size_t n);
/* Free places in the queue. */
UINT32 text_input_room(const struct text_input *ti);

/* RegisterKeyNotify's matching: the key must be equal (a Ctrl-letter registered by its
 * letter also matches its control code); shift and toggle states count only when the
 * registration marks them valid, and then left and right modifiers count as one. */
bool text_input_key_matches(const EFI_KEY_DATA *registered, const EFI_KEY_DATA *key);

/* The text_input behind a SimpleTextIn or SimpleTextInEx of ours, else NULL. */
struct text_input *text_input_from_in(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in);
struct text_input *text_input_from_in_ex(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *in_ex);

#endif
