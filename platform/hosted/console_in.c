/* EFI_SIMPLE_TEXT_INPUT_PROTOCOL (UEFI 2.10, 12.3) and EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL
 * (12.2) on one handle, reading a host file descriptor. A terminal is put in raw mode (no
 * echo, no line editing, but Ctrl-C still interrupts); a pipe or file is read as typed keys.
 * Bytes are read only when someone asks (ReadKeyStroke, the WaitForKey events, the key
 * notification timer), with poll(2) so nothing ever blocks; at end of input there are
 * simply no more keys. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <ember/core.h>
#include <ember/platform.h>
#include <ember/str.h>
#include <ember/term_keys.h>
#include <efi/protocol/simple_text_input_ex.h>
#include "console.h"

#define CON_IN_SIGNATURE SIGNATURE_32('h', 'c', 'i', 'n')
#define NOTIFY_SIGNATURE SIGNATURE_32('h', 'k', 'n', 'f')
#define KEY_QUEUE_SIZE 128
#define NOTIFY_QUEUE_SIZE 32
#define NOTIFY_CALLS_MAX 16
#define NOTIFY_POLL_100NS (20 * 10000) /* 20 ms */

/* A RegisterKeyNotify registration; its address is the NotifyHandle. */
struct key_notify {
	UINT32 signature;
	struct key_notify *next;
	EFI_KEY_DATA key;
	EFI_KEY_NOTIFY_FUNCTION function;
};

struct key_queue {
	EFI_KEY_DATA key[KEY_QUEUE_SIZE];
	UINT32 head, count;
};

struct con_in {
	UINT32 signature;
	int fd;
	bool tty, eof;
	EFI_HANDLE handle;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL in;
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL in_ex;
	struct console_path path;
	struct term_keys decoder;
	struct key_queue keys;
	EFI_KEY_TOGGLE_STATE toggle_state;
	struct key_notify *notifies;
	EFI_KEY_DATA notify_keys[NOTIFY_QUEUE_SIZE]; /* keys whose notifications are due */
	UINT32 notify_count;
	EFI_EVENT poll_timer;	/* reads input while notifications are registered */
	EFI_EVENT notify_event; /* calls the notification functions at TPL_CALLBACK */
};

/* The terminal's own mode and ours; raw_fd is the descriptor we changed (-1: none). */
static struct termios saved_termios, raw_termios;
static int raw_fd = -1;
static volatile sig_atomic_t raw_active;

/* ---- Key queue and notifications (callers hold TPL_NOTIFY) ---- */

static bool shift_folded_equal(UINT32 a, UINT32 b)
{
	/* A terminal cannot tell left from right: compare the modifiers, not the sides. */
	static const UINT32 pairs[] = {
	    EFI_LEFT_SHIFT_PRESSED | EFI_RIGHT_SHIFT_PRESSED,
	    EFI_LEFT_CONTROL_PRESSED | EFI_RIGHT_CONTROL_PRESSED,
	    EFI_LEFT_ALT_PRESSED | EFI_RIGHT_ALT_PRESSED,
	    EFI_LEFT_LOGO_PRESSED | EFI_RIGHT_LOGO_PRESSED,
	    EFI_MENU_KEY_PRESSED,
	    EFI_SYS_REQ_PRESSED,
	};

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++)
		if (!(a & pairs[i]) != !(b & pairs[i]))
			return false;
	return true;
}

/* Ctrl-letter arrives as a control code; a registration may name the letter instead. */
static bool char_matches(const EFI_KEY_DATA *reg, const EFI_KEY_DATA *key)
{
	CHAR16 want = reg->Key.UnicodeChar, got = key->Key.UnicodeChar;

	if (want == got)
		return true;
	if (!(reg->KeyState.KeyShiftState & (EFI_LEFT_CONTROL_PRESSED | EFI_RIGHT_CONTROL_PRESSED)))
		return false;
	if (want >= 'a' && want <= 'z')
		return got == want - 'a' + 1;
	return want >= 'A' && want <= 'Z' && got == want - 'A' + 1;
}

/* RegisterKeyNotify's matching: the key must be equal; shift and toggle states only count
 * when the registration marks them valid. */
static bool key_matches(const EFI_KEY_DATA *reg, const EFI_KEY_DATA *key)
{
	UINT32 reg_shift = reg->KeyState.KeyShiftState;
	EFI_KEY_TOGGLE_STATE reg_toggle = reg->KeyState.KeyToggleState;

	if (reg->Key.ScanCode != key->Key.ScanCode || !char_matches(reg, key))
		return false;
	if ((reg_shift & EFI_SHIFT_STATE_VALID) &&
	    !shift_folded_equal(reg_shift, key->KeyState.KeyShiftState))
		return false;
	if ((reg_toggle & EFI_TOGGLE_STATE_VALID) && reg_toggle != key->KeyState.KeyToggleState)
		return false;
	return true;
}

static void queue_notifications(struct con_in *c, const EFI_KEY_DATA *key)
{
	for (struct key_notify *n = c->notifies; n; n = n->next) {
		if (!key_matches(&n->key, key))
			continue;
		if (c->notify_count < NOTIFY_QUEUE_SIZE)
			c->notify_keys[c->notify_count++] = *key;
		event_signal(c->notify_event);
		return;
	}
}

static void push_key(struct con_in *c, const struct term_key *k)
{
	EFI_KEY_DATA key = {
	    .Key = {.ScanCode = k->scan, .UnicodeChar = k->unicode},
	    .KeyState = {.KeyShiftState = k->shift_state, .KeyToggleState = c->toggle_state},
	};

	if (c->keys.count == KEY_QUEUE_SIZE)
		return; /* cannot happen: input is read only while there is room */
	c->keys.key[(c->keys.head + c->keys.count++) % KEY_QUEUE_SIZE] = key;
	queue_notifications(c, &key);
}

static bool pop_key(struct con_in *c, EFI_KEY_DATA *key)
{
	if (!c->keys.count)
		return false;
	*key = c->keys.key[c->keys.head];
	c->keys.head = (c->keys.head + 1) % KEY_QUEUE_SIZE;
	c->keys.count--;
	return true;
}

static void push_keys(struct con_in *c, const struct term_key *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		push_key(c, &keys[i]);
}

/* ---- Reading input (callers hold TPL_NOTIFY) ---- */

/* Reads what is waiting on the descriptor, at most what the queue can take. Every key uses
 * up at least one byte except those of a pending sequence, so keeping TERM_KEYS_OUT_MAX
 * slots back means the queue never overflows. */
static void read_available(struct con_in *c)
{
	UINT8 buf[64];
	struct term_key keys[TERM_KEYS_OUT_MAX];

	while (!c->eof && KEY_QUEUE_SIZE - c->keys.count > TERM_KEYS_OUT_MAX) {
		struct pollfd p = {.fd = c->fd, .events = POLLIN};
		size_t room = KEY_QUEUE_SIZE - c->keys.count - TERM_KEYS_OUT_MAX;
		ssize_t n;

		if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
			return;
		n = read(c->fd, buf, MIN(room, sizeof(buf)));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		if (n <= 0) {
			c->eof = true; /* end of input, or a descriptor that cannot be read */
			return;
		}
		for (ssize_t i = 0; i < n; i++)
			push_keys(c, keys,
				  term_keys_feed(&c->decoder, buf[i], plat_monotonic_ns(), keys));
	}
}

/* Reads input and settles an escape sequence that has waited long enough. */
static void con_in_poll(struct con_in *c)
{
	struct term_key keys[TERM_KEYS_OUT_MAX];

	read_available(c);
	push_keys(c, keys, term_keys_flush(&c->decoder, plat_monotonic_ns(), c->eof, keys));
}

static bool con_in_read(struct con_in *c, EFI_KEY_DATA *key)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);
	bool got;

	con_in_poll(c);
	got = pop_key(c, key);
	tpl_restore(old);
	return got;
}

/* ---- Events ---- */

/* WaitForKey and WaitForKeyEx (EVT_NOTIFY_WAIT): signalled once a key is there. */
static void EFIAPI con_in_wait_notify(EFI_EVENT event, void *context)
{
	struct con_in *c = context;
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	con_in_poll(c);
	if (c->keys.count)
		event_signal(event);
	tpl_restore(old);
}

/* The periodic timer: notices keys nobody has asked for yet, for the notifications. */
static void EFIAPI con_in_poll_timer(EFI_EVENT event, void *context)
{
	struct con_in *c = context;
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	con_in_poll(c);
	tpl_restore(old);
}

/* Calls the notification functions for the keys queued for them, at TPL_CALLBACK. The
 * functions are collected under the lock and called outside it, so that they may
 * unregister themselves or read keys. */
static void EFIAPI con_in_run_notifies(EFI_EVENT event, void *context)
{
	struct con_in *c = context;

	for (;;) {
		EFI_KEY_NOTIFY_FUNCTION calls[NOTIFY_CALLS_MAX];
		size_t count = 0;
		EFI_KEY_DATA key;
		EFI_TPL old = tpl_raise(TPL_NOTIFY);

		if (!c->notify_count) {
			tpl_restore(old);
			return;
		}
		key = c->notify_keys[0];
		c->notify_count--;
		mem_copy(c->notify_keys, c->notify_keys + 1, c->notify_count * sizeof(key));
		for (struct key_notify *n = c->notifies; n && count < NOTIFY_CALLS_MAX; n = n->next)
			if (key_matches(&n->key, &key))
				calls[count++] = n->function;
		tpl_restore(old);
		for (size_t i = 0; i < count; i++)
			calls[i](&key);
	}
}

/* ---- SimpleTextIn ---- */

static struct con_in *con_in_from(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *this)
{
	struct con_in *c;

	if (!this)
		return NULL;
	c = container_of(this, struct con_in, in);
	return c->signature == CON_IN_SIGNATURE ? c : NULL;
}

static struct con_in *con_in_ex_from(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this)
{
	struct con_in *c;

	if (!this)
		return NULL;
	c = container_of(this, struct con_in, in_ex);
	return c->signature == CON_IN_SIGNATURE ? c : NULL;
}

/* Reset empties the queue of a terminal (keys typed before the reset are stale). Piped
 * input is a script fed ahead of time, so nothing of it is thrown away. */
static EFI_STATUS con_in_reset(struct con_in *c)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	if (c->tty) {
		c->keys.count = 0;
		term_keys_init(&c->decoder);
	}
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI con_in_reset_entry(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *this,
					    BOOLEAN extended_verification)
{
	struct con_in *c = con_in_from(this);

	return c ? con_in_reset(c) : EFI_INVALID_PARAMETER;
}

static EFI_STATUS EFIAPI con_in_read_key(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *this, EFI_INPUT_KEY *key)
{
	struct con_in *c = con_in_from(this);
	EFI_KEY_DATA data;

	if (!c || !key)
		return EFI_INVALID_PARAMETER;
	if (!con_in_read(c, &data))
		return EFI_NOT_READY;
	*key = data.Key;
	return EFI_SUCCESS;
}

/* ---- SimpleTextInEx ---- */

static EFI_STATUS EFIAPI con_in_ex_reset(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this,
					 BOOLEAN extended_verification)
{
	struct con_in *c = con_in_ex_from(this);

	return c ? con_in_reset(c) : EFI_INVALID_PARAMETER;
}

static EFI_STATUS EFIAPI con_in_ex_read_key(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this,
					    EFI_KEY_DATA *key_data)
{
	struct con_in *c = con_in_ex_from(this);

	if (!c || !key_data)
		return EFI_INVALID_PARAMETER;
	return con_in_read(c, key_data) ? EFI_SUCCESS : EFI_NOT_READY;
}

static EFI_STATUS EFIAPI con_in_ex_set_state(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this,
					     EFI_KEY_TOGGLE_STATE *toggle_state)
{
	struct con_in *c = con_in_ex_from(this);

	if (!c || !toggle_state)
		return EFI_INVALID_PARAMETER;
	if (!(*toggle_state & EFI_TOGGLE_STATE_VALID))
		return EFI_UNSUPPORTED;
	/* A terminal has no lock lights to set: the state is only reported back with keys. */
	c->toggle_state =
	    *toggle_state & (EFI_TOGGLE_STATE_VALID | EFI_KEY_STATE_EXPOSED |
			     EFI_SCROLL_LOCK_ACTIVE | EFI_NUM_LOCK_ACTIVE | EFI_CAPS_LOCK_ACTIVE);
	return EFI_SUCCESS;
}

static struct key_notify *find_notify(struct con_in *c, const EFI_KEY_DATA *key,
				      EFI_KEY_NOTIFY_FUNCTION function)
{
	for (struct key_notify *n = c->notifies; n; n = n->next)
		if (n->function == function &&
		    mem_cmp(&n->key.Key, &key->Key, sizeof(key->Key)) == 0 &&
		    n->key.KeyState.KeyShiftState == key->KeyState.KeyShiftState &&
		    n->key.KeyState.KeyToggleState == key->KeyState.KeyToggleState)
			return n;
	return NULL;
}

static EFI_STATUS EFIAPI con_in_ex_register_notify(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this,
						   EFI_KEY_DATA *key_data,
						   EFI_KEY_NOTIFY_FUNCTION function,
						   VOID **notify_handle)
{
	struct con_in *c = con_in_ex_from(this);
	struct key_notify *n;
	EFI_STATUS status = EFI_SUCCESS;
	EFI_TPL old;

	if (!c || !key_data || !function || !notify_handle)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	n = find_notify(c, key_data, function);
	if (!n) {
		n = pool_alloc(sizeof(*n));
		if (n) {
			*n =
			    (struct key_notify){NOTIFY_SIGNATURE, c->notifies, *key_data, function};
			if (!c->notifies)
				status = event_set_timer(c->poll_timer, TimerPeriodic,
							 NOTIFY_POLL_100NS);
			c->notifies = n;
		} else {
			status = EFI_OUT_OF_RESOURCES;
		}
	}
	tpl_restore(old);
	if (!EFI_ERROR(status))
		*notify_handle = n;
	return status;
}

static EFI_STATUS EFIAPI con_in_ex_unregister_notify(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this,
						     VOID *notify_handle)
{
	struct con_in *c = con_in_ex_from(this);
	struct key_notify **link, *n = NULL;
	EFI_TPL old;

	if (!c || !notify_handle)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	for (link = &c->notifies; *link; link = &(*link)->next)
		if (*link == notify_handle) {
			n = *link;
			*link = n->next;
			break;
		}
	if (n && !c->notifies)
		event_set_timer(c->poll_timer, TimerCancel, 0);
	tpl_restore(old);
	if (!n)
		return EFI_INVALID_PARAMETER;
	n->signature = 0;
	pool_free(n);
	return EFI_SUCCESS;
}

/* ---- Creation and exit ---- */

/* Raw mode: keys arrive one by one and unechoed; ISIG stays so Ctrl-C ends ember-run,
 * and output processing is left alone. */
static void enter_raw_mode(int fd)
{
	if (tcgetattr(fd, &saved_termios) != 0)
		return;
	raw_termios = saved_termios;
	raw_termios.c_lflag &= ~(tcflag_t)(ICANON | ECHO | IEXTEN);
	raw_termios.c_iflag &= ~(tcflag_t)(IXON | ICRNL | INLCR | IGNCR);
	raw_termios.c_cc[VMIN] = 1;
	raw_termios.c_cc[VTIME] = 0;
	raw_fd = fd;
	console_in_resume();
}

void console_in_restore(void)
{
	if (raw_active) {
		tcsetattr(raw_fd, TCSANOW, &saved_termios);
		raw_active = 0;
	}
}

void console_in_resume(void)
{
	if (raw_fd >= 0 && !raw_active && tcsetattr(raw_fd, TCSANOW, &raw_termios) == 0)
		raw_active = 1;
}

static EFI_STATUS create_events(struct con_in *c)
{
	EFI_STATUS status;

	status = event_create(EVT_NOTIFY_WAIT, TPL_NOTIFY, con_in_wait_notify, c, NULL,
			      &c->in.WaitForKey);
	if (EFI_ERROR(status))
		return status;
	status = event_create(EVT_NOTIFY_WAIT, TPL_NOTIFY, con_in_wait_notify, c, NULL,
			      &c->in_ex.WaitForKeyEx);
	if (EFI_ERROR(status))
		goto err_wait;
	status = event_create(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, con_in_poll_timer, c,
			      NULL, &c->poll_timer);
	if (EFI_ERROR(status))
		goto err_wait_ex;
	status = event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, con_in_run_notifies, c, NULL,
			      &c->notify_event);
	if (EFI_ERROR(status))
		goto err_timer;
	return EFI_SUCCESS;

err_timer:
	event_close(c->poll_timer);
err_wait_ex:
	event_close(c->in_ex.WaitForKeyEx);
err_wait:
	event_close(c->in.WaitForKey);
	return status;
}

static void close_events(struct con_in *c)
{
	event_close(c->notify_event);
	event_close(c->poll_timer);
	event_close(c->in_ex.WaitForKeyEx);
	event_close(c->in.WaitForKey);
}

static const EFI_SIMPLE_TEXT_INPUT_PROTOCOL con_in_template = {
    .Reset = con_in_reset_entry,
    .ReadKeyStroke = con_in_read_key,
};

static const EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL con_in_ex_template = {
    .Reset = con_in_ex_reset,
    .ReadKeyStrokeEx = con_in_ex_read_key,
    .SetState = con_in_ex_set_state,
    .RegisterKeyNotify = con_in_ex_register_notify,
    .UnregisterKeyNotify = con_in_ex_unregister_notify,
};

EFI_STATUS console_in_create(int fd, const EFI_GUID *device, EFI_HANDLE *handle,
			     EFI_SIMPLE_TEXT_INPUT_PROTOCOL **in)
{
	static const EFI_GUID in_guid = EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID;
	static const EFI_GUID in_ex_guid = EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL_GUID;
	static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	struct con_in *c = pool_alloc(sizeof(*c));
	EFI_STATUS status;

	if (!c)
		return EFI_OUT_OF_RESOURCES;
	c->signature = CON_IN_SIGNATURE;
	c->fd = fd;
	c->tty = isatty(fd);
	c->in = con_in_template;
	c->in_ex = con_in_ex_template;
	term_keys_init(&c->decoder);
	console_path_init(&c->path, device);
	status = create_events(c);
	if (EFI_ERROR(status))
		goto err_free;
	status = protocol_install_multiple(&c->handle, &in_guid, &c->in, &in_ex_guid, &c->in_ex,
					   &path_guid, &c->path, NULL);
	if (EFI_ERROR(status))
		goto err_events;
	if (c->tty)
		enter_raw_mode(fd);
	*handle = c->handle;
	*in = &c->in;
	return EFI_SUCCESS;

err_events:
	close_events(c);
err_free:
	pool_free(c);
	return status;
}
