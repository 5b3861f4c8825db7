/* Task priority levels and the notification queues (UEFI 2.10, section 7.1).
 * TPL_HIGH_LEVEL means interrupts off. Lowering the TPL runs the notify functions queued
 * above the new level, highest first, each at its own TPL with interrupts on. */
#include "event.h"
#include "../services.h"
#include <ember/core/platform.h>

static EFI_TPL current_tpl = TPL_APPLICATION;
static UINT32 pending; /* bit n: the queue for TPL n is not empty */
static struct list queues[TPL_HIGH_LEVEL + 1];
static bool queues_ready;

static void queues_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(queues); i++)
		list_init(&queues[i]);
	queues_ready = true;
}

EFI_TPL tpl_current(void)
{
	return current_tpl;
}

EFI_TPL tpl_raise(EFI_TPL new_tpl)
{
	EFI_TPL old = current_tpl;

	if (new_tpl > TPL_HIGH_LEVEL)
		new_tpl = TPL_HIGH_LEVEL;
	if (new_tpl <= old)
		return old; /* lowering through RaiseTPL is undefined; leave the level alone */
	if (new_tpl >= TPL_HIGH_LEVEL)
		plat_interrupts_disable();
	current_tpl = new_tpl;
	return old;
}

void event_queue_notify(struct event *e)
{
	if (!queues_ready)
		queues_init();
	if (e->queued)
		list_del(&e->notify_link);
	list_add_tail(&e->notify_link, &queues[e->notify_tpl]);
	e->queued = true;
	pending |= 1u << e->notify_tpl;
}

/* Runs the queue of one TPL; called and returns with interrupts disabled. */
static void dispatch(EFI_TPL tpl)
{
	while (!list_empty(&queues[tpl])) {
		struct event *e = list_first_entry(&queues[tpl], struct event, notify_link);
		list_del(&e->notify_link);
		e->queued = false;
		/* A signal-type event is consumed by its notification; wait-type ones by
		 * CheckEvent. */
		if (e->type & EVT_NOTIFY_SIGNAL)
			e->signaled = false;
		plat_interrupts_enable();
		e->notify_function(e, e->notify_context);
		plat_interrupts_disable();
	}
	pending &= ~(1u << tpl);
}

void tpl_restore(EFI_TPL old_tpl)
{
	if (old_tpl > current_tpl)
		return; /* raising through RestoreTPL is undefined */
	if (current_tpl < TPL_HIGH_LEVEL)
		plat_interrupts_disable();
	while (old_tpl < TPL_HIGH_LEVEL && (pending >> (old_tpl + 1))) {
		EFI_TPL tpl = 31 - (EFI_TPL)__builtin_clz(pending);
		current_tpl = tpl;
		dispatch(tpl);
	}
	current_tpl = old_tpl;
	if (old_tpl < TPL_HIGH_LEVEL)
		plat_interrupts_enable();
}

/* ---- Boot services entry points ---- */

EFI_TPL EFIAPI efi_raise_tpl(EFI_TPL new_tpl)
{
	return tpl_raise(new_tpl);
}

VOID EFIAPI efi_restore_tpl(EFI_TPL old_tpl)
{
	tpl_restore(old_tpl);
}
