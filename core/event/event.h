/* Events, as the TPL, event and timer code share them. */
#ifndef CORE_EVENT_EVENT_H
#define CORE_EVENT_EVENT_H

#include <ember/core/core.h>
#include <ember/lib/list.h>

#define EVENT_SIGNATURE SIGNATURE_32('e', 'v', 'n', 't')

struct event {
	UINT32 signature;
	UINT32 type;
	EFI_TPL notify_tpl;
	EFI_EVENT_NOTIFY notify_function;
	void *notify_context;
	EFI_GUID group;
	bool in_group;
	bool signaled;
	bool queued; /* on a notify queue */
	bool timer_armed;
	bool periodic;
	struct list notify_link;
	struct list all_link;
	struct list timer_link;
	UINT64 trigger; /* 100 ns units of core_time_100ns() */
	UINT64 period;
};

/* The event behind a caller's handle, or NULL. */
struct event *event_lookup(EFI_EVENT handle);

/* Queues the notify function (interrupts are disabled by the caller). */
void event_queue_notify(struct event *e);
/* Marks an event signalled and queues its notification; interrupts disabled. */
void event_signal_locked(struct event *e);
/* Takes an event off the timer list; interrupts disabled. */
void timer_disarm(struct event *e);

#endif
