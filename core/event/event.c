/* Event services (UEFI 2.10, section 7.1): create, signal, check, wait, close, groups. */
#include "event.h"
#include "../services.h"
#include <ember/core/platform.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

static struct list all_events = LIST_INIT(all_events);

struct event *event_lookup(EFI_EVENT handle)
{
	struct event *e = handle;

	if (!e || !mem_is_allocated(e, sizeof(*e)) || e->signature != EVENT_SIGNATURE)
		return NULL;
	return e;
}

bool event_is_valid(EFI_EVENT event)
{
	return event_lookup(event) != NULL;
}

static bool type_is_valid(UINT32 type)
{
	const UINT32 combinable = EVT_TIMER | EVT_RUNTIME | EVT_NOTIFY_WAIT | EVT_NOTIFY_SIGNAL;

	if (type == EVT_SIGNAL_EXIT_BOOT_SERVICES || type == EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE)
		return true;
	if (type & ~combinable)
		return false;
	return (type & (EVT_NOTIFY_WAIT | EVT_NOTIFY_SIGNAL)) !=
	       (EVT_NOTIFY_WAIT | EVT_NOTIFY_SIGNAL);
}

EFI_STATUS event_create(UINT32 type, EFI_TPL notify_tpl, EFI_EVENT_NOTIFY notify_function,
			const void *notify_context, const EFI_GUID *event_group, EFI_EVENT *event)
{
	struct event *e;
	bool notifies = type & (EVT_NOTIFY_WAIT | EVT_NOTIFY_SIGNAL);
	bool plat_was_enabled;

	if (!event || !type_is_valid(type))
		return EFI_INVALID_PARAMETER;
	if (notifies &&
	    (!notify_function || notify_tpl <= TPL_APPLICATION || notify_tpl >= TPL_HIGH_LEVEL))
		return EFI_INVALID_PARAMETER;
	if (event_group &&
	    (type == EVT_SIGNAL_EXIT_BOOT_SERVICES || type == EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE))
		return EFI_INVALID_PARAMETER;
	if (type == EVT_SIGNAL_EXIT_BOOT_SERVICES)
		event_group = &efi_event_group_exit_boot_services_guid;
	else if (type == EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE)
		event_group = &efi_event_group_virtual_address_change_guid;

	/* Runtime events must outlive ExitBootServices. */
	e = pool_alloc_typed((type & EVT_RUNTIME) ? EfiRuntimeServicesData : EfiBootServicesData,
			     sizeof(*e));
	if (!e)
		return EFI_OUT_OF_RESOURCES;
	mem_set(e, 0, sizeof(*e));
	e->signature = EVENT_SIGNATURE;
	e->type = type;
	if (notifies) {
		e->notify_tpl = notify_tpl;
		e->notify_function = notify_function;
		e->notify_context = (void *)notify_context;
	}
	if (event_group) {
		e->group = *event_group;
		e->in_group = true;
	}
	list_init(&e->notify_link);
	list_init(&e->timer_link);
	plat_was_enabled = plat_interrupts_disable();
	list_add_tail(&e->all_link, &all_events);
	if (plat_was_enabled)
		plat_interrupts_enable();
	*event = e;
	return EFI_SUCCESS;
}

static void signal_one(struct event *e)
{
	e->signaled = true;
	if (e->type & EVT_NOTIFY_SIGNAL)
		event_queue_notify(e);
}

void event_signal_locked(struct event *e)
{
	struct event *member;

	if (e->signaled)
		return;
	if (!e->in_group) {
		signal_one(e);
		return;
	}
	list_for_each_entry (member, &all_events, all_link)
		if (member->in_group && guid_eq(&member->group, &e->group) && !member->signaled)
			signal_one(member);
}

EFI_STATUS event_signal(EFI_EVENT event)
{
	EFI_TPL old = tpl_raise(TPL_HIGH_LEVEL);

	event_signal_locked(event);
	tpl_restore(old);
	return EFI_SUCCESS;
}

void event_signal_group(const EFI_GUID *group)
{
	EFI_TPL old = tpl_raise(TPL_HIGH_LEVEL);
	struct event *e;

	list_for_each_entry (e, &all_events, all_link)
		if (e->in_group && guid_eq(&e->group, group) && !e->signaled)
			signal_one(e);
	tpl_restore(old);
}

EFI_STATUS event_check(EFI_EVENT event)
{
	struct event *e = event;
	EFI_STATUS status = EFI_NOT_READY;
	EFI_TPL old;

	if (e->type & EVT_NOTIFY_SIGNAL)
		return EFI_INVALID_PARAMETER;
	if (!e->signaled && (e->type & EVT_NOTIFY_WAIT)) {
		/* Let the wait notification look for whatever the event stands for. */
		old = tpl_raise(TPL_HIGH_LEVEL);
		if (!e->queued)
			event_queue_notify(e);
		tpl_restore(old);
	}
	old = tpl_raise(TPL_HIGH_LEVEL);
	if (e->signaled) {
		e->signaled = false;
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

EFI_STATUS event_wait(UINTN count, EFI_EVENT *events, UINTN *index)
{
	if (tpl_current() != TPL_APPLICATION)
		return EFI_UNSUPPORTED;
	for (;;) {
		for (UINTN i = 0; i < count; i++) {
			struct event *e = event_lookup(events[i]);
			EFI_STATUS status = e ? event_check(e) : EFI_INVALID_PARAMETER;
			if (status != EFI_NOT_READY) {
				*index = i;
				return status;
			}
		}
		plat_idle();
	}
}

EFI_STATUS event_close(EFI_EVENT event)
{
	struct event *e = event;
	EFI_TPL old = tpl_raise(TPL_HIGH_LEVEL);

	if (e->queued) {
		list_del(&e->notify_link);
		e->queued = false;
	}
	timer_disarm(e);
	list_del(&e->all_link);
	tpl_restore(old);
	protocol_notify_forget_event(e);
	e->signature = 0;
	pool_free(e);
	return EFI_SUCCESS;
}

/* ---- Boot services entry points ---- */

EFI_STATUS EFIAPI efi_create_event(UINT32 type, EFI_TPL notify_tpl, EFI_EVENT_NOTIFY notify,
				   VOID *context, EFI_EVENT *event)
{
	return event_create(type, notify_tpl, notify, context, NULL, event);
}

EFI_STATUS EFIAPI efi_create_event_ex(UINT32 type, EFI_TPL notify_tpl, EFI_EVENT_NOTIFY notify,
				      CONST VOID *context, CONST EFI_GUID *group, EFI_EVENT *event)
{
	return event_create(type, notify_tpl, notify, context, group, event);
}

EFI_STATUS EFIAPI efi_signal_event(EFI_EVENT event)
{
	struct event *e = event_lookup(event);

	return e ? event_signal(e) : EFI_INVALID_PARAMETER;
}

EFI_STATUS EFIAPI efi_check_event(EFI_EVENT event)
{
	struct event *e = event_lookup(event);

	return e ? event_check(e) : EFI_INVALID_PARAMETER;
}

EFI_STATUS EFIAPI efi_wait_for_event(UINTN count, EFI_EVENT *events, UINTN *index)
{
	if (count == 0 || !events || !index)
		return EFI_INVALID_PARAMETER;
	return event_wait(count, events, index);
}

EFI_STATUS EFIAPI efi_close_event(EFI_EVENT event)
{
	struct event *e = event_lookup(event);

	return e ? event_close(e) : EFI_INVALID_PARAMETER;
}
