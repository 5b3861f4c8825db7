/* Task priority levels (UEFI 2.10, 7.1: RaiseTPL, RestoreTPL and how notifications are
 * deferred and dispatched). */
#define APP_TEST_SUITE "10_tpl"
#include "conformance.h"

APP_TEST(entry_tpl_is_application)
{
	/* The boot manager passes control to applications at TPL_APPLICATION (Table 7-2). */
	CHECK_EQ(current_tpl(), TPL_APPLICATION);
}

APP_TEST(raise_returns_previous_level)
{
	EFI_TPL a = app_bs->RaiseTPL(TPL_CALLBACK);
	EFI_TPL in_callback = current_tpl();
	EFI_TPL b = app_bs->RaiseTPL(TPL_NOTIFY);
	EFI_TPL in_notify = current_tpl();
	EFI_TPL c = app_bs->RaiseTPL(TPL_HIGH_LEVEL);
	EFI_TPL d = app_bs->RaiseTPL(TPL_HIGH_LEVEL);

	app_bs->RestoreTPL(d);
	app_bs->RestoreTPL(c);
	EFI_TPL back_notify = current_tpl();
	app_bs->RestoreTPL(b);
	app_bs->RestoreTPL(a);
	CHECK_EQ(a, TPL_APPLICATION);
	CHECK_EQ(in_callback, TPL_CALLBACK);
	CHECK_EQ(b, TPL_CALLBACK);
	CHECK_EQ(in_notify, TPL_NOTIFY);
	CHECK_EQ(c, TPL_NOTIFY);
	CHECK_EQ(d, TPL_HIGH_LEVEL);
	CHECK_EQ(back_notify, TPL_NOTIFY);
	CHECK_EQ(current_tpl(), TPL_APPLICATION);
}

APP_TEST(raise_to_same_level)
{
	EFI_TPL old = app_bs->RaiseTPL(TPL_APPLICATION);

	app_bs->RestoreTPL(old);
	CHECK_EQ(old, TPL_APPLICATION);
}

static EFI_EVENT signal_event(EFI_TPL tpl, EFI_EVENT_NOTIFY fn, void *ctx)
{
	EFI_EVENT e = NULL;

	if (app_bs->CreateEvent(EVT_NOTIFY_SIGNAL, tpl, fn, ctx, &e) != EFI_SUCCESS)
		return NULL;
	return e;
}

APP_TEST(notify_deferred_until_restore)
{
	UINTN count = 0;
	EFI_EVENT e = signal_event(TPL_CALLBACK, count_notify, &count);

	if (!CHECK(e))
		return;
	EFI_TPL old = app_bs->RaiseTPL(TPL_CALLBACK);
	CHECK_STATUS(app_bs->SignalEvent(e), EFI_SUCCESS);
	UINTN while_raised = count;
	app_bs->RestoreTPL(old);
	CHECK_EQ(while_raised, 0);
	CHECK_EQ(count, 1);
	app_bs->CloseEvent(e);
}

APP_TEST(notify_above_current_tpl_runs_at_once)
{
	UINTN low = 0, high = 0;
	EFI_EVENT e1 = signal_event(TPL_CALLBACK, count_notify, &low);
	EFI_EVENT e2 = signal_event(TPL_NOTIFY, count_notify, &high);

	if (CHECK(e1 && e2)) {
		app_bs->SignalEvent(e1);
		CHECK_EQ(low, 1);
		EFI_TPL old = app_bs->RaiseTPL(TPL_CALLBACK);
		app_bs->SignalEvent(e2);
		UINTN high_in_callback = high;
		app_bs->RestoreTPL(old);
		CHECK_EQ(high_in_callback, 1);
	}
	if (e1)
		app_bs->CloseEvent(e1);
	if (e2)
		app_bs->CloseEvent(e2);
}

APP_TEST(callback_notify_blocked_at_notify_tpl)
{
	UINTN count = 0;
	EFI_EVENT e = signal_event(TPL_CALLBACK, count_notify, &count);

	if (!CHECK(e))
		return;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
	app_bs->SignalEvent(e);
	app_bs->Stall(1000);
	UINTN at_notify = count;
	app_bs->RestoreTPL(TPL_CALLBACK);
	UINTN at_callback = count;
	app_bs->RestoreTPL(old);
	CHECK_EQ(at_notify, 0);
	CHECK_EQ(at_callback, 0);
	CHECK_EQ(count, 1);
	app_bs->CloseEvent(e);
}

APP_TEST(dispatch_highest_tpl_first_fifo_within)
{
	struct notify_log log = {0};
	struct log_ctx ctx[4] = {{&log, 0}, {&log, 1}, {&log, 2}, {&log, 3}};
	EFI_TPL tpls[4] = {TPL_CALLBACK, TPL_NOTIFY, TPL_CALLBACK, TPL_NOTIFY};
	EFI_EVENT e[4] = {0};

	for (int i = 0; i < 4; i++)
		CHECK_STATUS(
		    app_bs->CreateEvent(EVT_NOTIFY_SIGNAL, tpls[i], log_notify, &ctx[i], &e[i]),
		    EFI_SUCCESS);
	EFI_TPL old = app_bs->RaiseTPL(TPL_HIGH_LEVEL);
	for (int i = 0; i < 4; i++)
		if (e[i])
			app_bs->SignalEvent(e[i]);
	app_bs->RestoreTPL(old);
	/* Queues are served highest TPL first, each in FIFO order (CreateEvent). */
	static const UINTN want[4] = {1, 3, 0, 2};
	if (CHECK_EQ(log.count, 4)) {
		for (int i = 0; i < 4; i++) {
			CHECK_EQ(log.entry[i].id, want[i]);
			CHECK_EQ(log.entry[i].tpl, tpls[want[i]]);
			CHECK(log.entry[i].event == e[want[i]]);
		}
	}
	for (int i = 0; i < 4; i++)
		if (e[i])
			app_bs->CloseEvent(e[i]);
}

APP_TEST(timer_notify_held_while_tpl_raised)
{
	UINTN count = 0;
	EFI_EVENT e = NULL;

	if (!CHECK_STATUS(app_bs->CreateEvent(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK,
					      count_notify, &count, &e),
			  EFI_SUCCESS))
		return;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
	CHECK_STATUS(app_bs->SetTimer(e, TimerRelative, 0), EFI_SUCCESS);
	app_bs->Stall(40 * 1000);
	UINTN raised = count;
	app_bs->RestoreTPL(old);
	CHECK_EQ(raised, 0);
	CHECK_EQ(count, 1);
	app_bs->CloseEvent(e);
}

struct nest_ctx {
	struct notify_log *log;
	EFI_EVENT inner;
};

static void EFIAPI outer_notify(EFI_EVENT event, void *p)
{
	struct nest_ctx *n = p;
	struct log_ctx start = {n->log, 10}, end = {n->log, 12};

	log_notify(event, &start);
	app_bs->SignalEvent(n->inner);
	log_notify(event, &end);
}

APP_TEST(higher_notify_preempts_running_notify)
{
	struct notify_log log = {0};
	struct log_ctx inner_ctx = {&log, 11};
	struct nest_ctx outer_ctx = {&log, NULL};
	EFI_EVENT outer = signal_event(TPL_CALLBACK, outer_notify, &outer_ctx);

	outer_ctx.inner = signal_event(TPL_NOTIFY, log_notify, &inner_ctx);
	if (CHECK(outer && outer_ctx.inner)) {
		app_bs->SignalEvent(outer);
		if (CHECK_EQ(log.count, 3)) {
			CHECK_EQ(log.entry[0].id, 10);
			CHECK_EQ(log.entry[1].id, 11);
			CHECK_EQ(log.entry[1].tpl, TPL_NOTIFY);
			CHECK_EQ(log.entry[2].id, 12);
			CHECK_EQ(log.entry[2].tpl, TPL_CALLBACK);
		}
	}
	if (outer)
		app_bs->CloseEvent(outer);
	if (outer_ctx.inner)
		app_bs->CloseEvent(outer_ctx.inner);
}
