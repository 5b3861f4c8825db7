/* Timer events and the tick that drives them (UEFI 2.10, SetTimer). Time is counted in
 * the spec's 100 ns units from the platform's monotonic clock; the platform's periodic
 * interrupt calls core_timer_tick, which signals every timer that has come due. */
#include "event.h"
#include "../services.h"
#include <ember/core/platform.h>

static struct list timers = LIST_INIT(timers); /* armed timers by trigger time */
static UINT64 boot_ns;

UINT64 core_time_ns(void)
{
	return plat_monotonic_ns();
}

UINT64 core_time_100ns(void)
{
	if (!boot_ns)
		boot_ns = plat_monotonic_ns();
	return (plat_monotonic_ns() - boot_ns) / 100;
}

void timer_disarm(struct event *e)
{
	if (e->timer_armed) {
		list_del(&e->timer_link);
		e->timer_armed = false;
	}
}

static void timer_arm(struct event *e, UINT64 trigger)
{
	struct list *pos;

	e->trigger = trigger;
	list_for_each (pos, &timers)
		if (list_entry(pos, struct event, timer_link)->trigger > trigger)
			break;
	list_insert_between(&e->timer_link, pos->prev, pos);
	e->timer_armed = true;
}

EFI_STATUS event_set_timer(EFI_EVENT event, EFI_TIMER_DELAY type, UINT64 trigger_time)
{
	struct event *e = event;
	EFI_TPL old;

	if (!(e->type & EVT_TIMER) || (UINT32)type > TimerRelative)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_HIGH_LEVEL);
	timer_disarm(e);
	if (type != TimerCancel) {
		e->periodic = type == TimerPeriodic;
		e->period = trigger_time;
		/* A zero delay means the next tick: the trigger is already due. */
		timer_arm(e, core_time_100ns() + trigger_time);
	}
	tpl_restore(old);
	return EFI_SUCCESS;
}

void core_timer_tick(void)
{
	EFI_TPL old = tpl_raise(TPL_HIGH_LEVEL);
	UINT64 now = core_time_100ns();

	while (!list_empty(&timers)) {
		struct event *e = list_first_entry(&timers, struct event, timer_link);
		if (e->trigger > now)
			break;
		timer_disarm(e);
		event_signal_locked(e);
		if (e->periodic) {
			/* Keep the phase, but never queue a burst of missed periods. */
			UINT64 next = e->trigger + e->period;
			if (next <= now)
				next = now + (e->period ? e->period : 1);
			timer_arm(e, next);
		}
	}
	tpl_restore(old);
}

EFI_STATUS EFIAPI efi_set_timer(EFI_EVENT event, EFI_TIMER_DELAY type, UINT64 trigger_time)
{
	struct event *e = event_lookup(event);

	return e ? event_set_timer(e, type, trigger_time) : EFI_INVALID_PARAMETER;
}
