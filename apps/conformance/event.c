/* Events (UEFI 2.10, 7.1: CreateEvent, CreateEventEx, CloseEvent, SignalEvent,
 * CheckEvent, WaitForEvent, event groups). Timers are in timer.c. */
#define APP_TEST_SUITE "20_event"
#include "conformance.h"

static EFI_STATUS create(UINT32 type, EFI_TPL tpl, EFI_EVENT_NOTIFY fn, void *ctx, EFI_EVENT *e)
{
	*e = NULL;
	return app_bs->CreateEvent(type, tpl, fn, ctx, e);
}

static EFI_STATUS create_in(EFI_GUID *group, UINT32 type, EFI_TPL tpl, EFI_EVENT_NOTIFY fn,
			    void *ctx, EFI_EVENT *e)
{
	*e = NULL;
	return app_bs->CreateEventEx(type, tpl, fn, ctx, group, e);
}

static void close_all(EFI_EVENT *e, int n)
{
	for (int i = 0; i < n; i++)
		if (e[i])
			app_bs->CloseEvent(e[i]);
}

/* A failing creation must not hand out an event; close one if it did. */
static EFI_STATUS create_expect_fail(UINT32 type, EFI_TPL tpl, EFI_EVENT_NOTIFY fn, EFI_GUID *group)
{
	EFI_EVENT e = NULL;
	EFI_STATUS status = app_bs->CreateEventEx(type, tpl, fn, NULL, group, &e);

	if (!EFI_ERROR(status) && e)
		app_bs->CloseEvent(e);
	return status;
}

APP_TEST(create_null_event_pointer)
{
	UINTN n = 0;

	CHECK_STATUS(app_bs->CreateEvent(0, 0, NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->CreateEventEx(0, 0, NULL, NULL, tguid(G_EVENT_GROUP), NULL),
		     EFI_INVALID_PARAMETER);
}

APP_TEST(create_unsupported_type_bits)
{
	static const UINT32 bad[] = {0x00000001, 0x00000400, 0x00010000, 0x08000000,
				     EVT_NOTIFY_SIGNAL | 0x00000800};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK_STATUS(create_expect_fail(bad[i], TPL_CALLBACK, count_notify, NULL),
			     EFI_INVALID_PARAMETER);
}

APP_TEST(create_wait_and_signal_together)
{
	CHECK_STATUS(create_expect_fail(EVT_NOTIFY_WAIT | EVT_NOTIFY_SIGNAL, TPL_CALLBACK,
					count_notify, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(create_expect_fail(EVT_TIMER | EVT_NOTIFY_WAIT | EVT_NOTIFY_SIGNAL,
					TPL_CALLBACK, count_notify, NULL),
		     EFI_INVALID_PARAMETER);
}

APP_TEST(create_notify_without_function)
{
	CHECK_STATUS(create_expect_fail(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(create_expect_fail(EVT_NOTIFY_WAIT, TPL_CALLBACK, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(create_expect_fail(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_NOTIFY, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(
	    create_expect_fail(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, NULL, tguid(G_EVENT_GROUP)),
	    EFI_INVALID_PARAMETER);
}

APP_TEST(create_notify_with_bad_tpl)
{
	/* Notification levels must be above TPL_APPLICATION and at most TPL_HIGH_LEVEL
	 * (Table 7-2), and only the defined levels may be used (RaiseTPL). */
	static const EFI_TPL bad[] = {0, TPL_APPLICATION, TPL_HIGH_LEVEL + 1, 0x100, ~(EFI_TPL)0};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK_STATUS(create_expect_fail(EVT_NOTIFY_SIGNAL, bad[i], count_notify, NULL),
			     EFI_INVALID_PARAMETER);
		CHECK_STATUS(create_expect_fail(EVT_NOTIFY_WAIT, bad[i], count_notify, NULL),
			     EFI_INVALID_PARAMETER);
	}
}

APP_TEST(create_ignores_notify_args_without_notify_type)
{
	EFI_EVENT e[2];

	/* Without a notify type, NotifyTpl, NotifyFunction and NotifyContext are ignored. */
	CHECK_STATUS(create(0, 0, NULL, NULL, &e[0]), EFI_SUCCESS);
	CHECK_STATUS(create(EVT_TIMER, 0x1234, NULL, NULL, &e[1]), EFI_SUCCESS);
	CHECK(e[0] && e[1] && e[0] != e[1]);
	close_all(e, 2);
}

APP_TEST(create_every_valid_type)
{
	static const UINT32 types[] = {EVT_TIMER | EVT_NOTIFY_SIGNAL,
				       EVT_TIMER | EVT_NOTIFY_WAIT,
				       EVT_NOTIFY_WAIT,
				       EVT_NOTIFY_SIGNAL,
				       EVT_SIGNAL_EXIT_BOOT_SERVICES,
				       EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE};
	UINTN n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		EFI_EVENT e;
		if (CHECK_STATUS(create(types[i], TPL_CALLBACK, count_notify, &n, &e), EFI_SUCCESS))
			CHECK_STATUS(app_bs->CloseEvent(e), EFI_SUCCESS);
	}
	CHECK_EQ(n, 0);
}

APP_TEST(create_ex_without_group_is_create)
{
	UINTN n = 0;
	EFI_EVENT e;

	if (!CHECK_STATUS(create_in(NULL, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, &e),
			  EFI_SUCCESS))
		return;
	CHECK_STATUS(app_bs->SignalEvent(e), EFI_SUCCESS);
	CHECK_EQ(n, 1);
	app_bs->CloseEvent(e);
	/* Without a group the EFI 1.10 composite types are valid, as in CreateEvent. */
	if (CHECK_STATUS(
		create_in(NULL, EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, count_notify, &n, &e),
		EFI_SUCCESS))
		app_bs->CloseEvent(e);
}

APP_TEST(create_ex_rejects_composite_types_in_group)
{
	static EFI_GUID ebs_group = EFI_EVENT_GROUP_EXIT_BOOT_SERVICES;
	static EFI_GUID vac_group = EFI_EVENT_GROUP_VIRTUAL_ADDRESS_CHANGE;

	/* CreateEventEx: EVT_SIGNAL_EXIT_BOOT_SERVICES and ..._VIRTUAL_ADDRESS_CHANGE are not
	 * valid types for an event in a group. */
	CHECK_STATUS(create_expect_fail(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, count_notify,
					tguid(G_EVENT_GROUP)),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(create_expect_fail(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, count_notify,
					&ebs_group),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(create_expect_fail(EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE, TPL_CALLBACK,
					count_notify, tguid(G_EVENT_GROUP)),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(create_expect_fail(EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE, TPL_CALLBACK,
					count_notify, &vac_group),
		     EFI_INVALID_PARAMETER);
}

APP_TEST(group_signal_reaches_every_member)
{
	EFI_GUID *g = tguid(G_EVENT_GROUP);
	UINTN n_cb = 0, n_notify = 0, n_outside = 0;
	EFI_EVENT e[3];

	CHECK_STATUS(create_in(g, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n_cb, &e[0]),
		     EFI_SUCCESS);
	CHECK_STATUS(create_in(g, EVT_NOTIFY_SIGNAL, TPL_NOTIFY, count_notify, &n_notify, &e[1]),
		     EFI_SUCCESS);
	CHECK_STATUS(create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n_outside, &e[2]),
		     EFI_SUCCESS);
	if (e[0] && e[1] && e[2]) {
		CHECK_STATUS(app_bs->SignalEvent(e[0]), EFI_SUCCESS);
		CHECK_EQ(n_cb, 1);
		CHECK_EQ(n_notify, 1);
		CHECK_STATUS(app_bs->SignalEvent(e[1]), EFI_SUCCESS);
		CHECK_EQ(n_cb, 2);
		CHECK_EQ(n_notify, 2);
		CHECK_EQ(n_outside, 0);
	}
	close_all(e, 3);
}

/* EDK2 keeps only EVT_NOTIFY_SIGNAL events on its group signal list: signaling an event
 * of another type signals only that event, and group signals skip such members. The
 * specification makes every event of a group a member, and its SignalEvent example
 * signals a group through an event of type 0. */
#define EDK2_GROUPS "event groups hold only EVT_NOTIFY_SIGNAL events in EDK2"

APP_TEST(group_signaled_through_plain_member)
{
	EFI_GUID *g = tguid(G_EVENT_GROUP + 5);
	UINTN n = 0;
	EFI_EVENT e[2];

	CHECK_STATUS(create_in(g, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, &e[0]),
		     EFI_SUCCESS);
	/* The idiom shown in SignalEvent: create a member of type 0, signal it, close it. */
	CHECK_STATUS(create_in(g, 0, 0, NULL, NULL, &e[1]), EFI_SUCCESS);
	if (e[0] && e[1]) {
		CHECK_STATUS(app_bs->SignalEvent(e[1]), EFI_SUCCESS);
		CHECK_STATUS(app_bs->CloseEvent(e[1]), EFI_SUCCESS);
		e[1] = NULL;
		CHECK_EQ_KNOWN(n, 1, FW_EDK2, EDK2_GROUPS);
	}
	close_all(e, 2);
}

APP_TEST(group_signal_sets_plain_member)
{
	EFI_GUID *g = tguid(G_EVENT_GROUP + 6);
	UINTN n = 0;
	EFI_EVENT e[2];

	CHECK_STATUS(create_in(g, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, &e[0]),
		     EFI_SUCCESS);
	CHECK_STATUS(create_in(g, 0, 0, NULL, NULL, &e[1]), EFI_SUCCESS);
	if (e[0] && e[1]) {
		CHECK_STATUS(app_bs->CheckEvent(e[1]), EFI_NOT_READY);
		CHECK_STATUS(app_bs->SignalEvent(e[0]), EFI_SUCCESS);
		CHECK_EQ(n, 1);
		CHECK_STATUS_KNOWN(app_bs->CheckEvent(e[1]), EFI_SUCCESS, FW_EDK2, EDK2_GROUPS);
		CHECK_STATUS(app_bs->CheckEvent(e[1]), EFI_NOT_READY);
	}
	close_all(e, 2);
}

struct group_probe {
	EFI_EVENT other;
	EFI_STATUS seen;
	UINTN calls;
};

static void EFIAPI probe_notify(EFI_EVENT event, void *p)
{
	struct group_probe *probe = p;

	probe->calls++;
	probe->seen = app_bs->CheckEvent(probe->other);
}

APP_TEST(group_members_signaled_before_first_notify)
{
	EFI_GUID *g = tguid(G_EVENT_GROUP + 1);
	struct group_probe probe = {NULL, EFI_DEVICE_ERROR, 0};
	EFI_EVENT e[2];

	CHECK_STATUS(create_in(g, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, probe_notify, &probe, &e[0]),
		     EFI_SUCCESS);
	CHECK_STATUS(create_in(g, 0, 0, NULL, NULL, &e[1]), EFI_SUCCESS);
	probe.other = e[1];
	if (e[0] && e[1]) {
		app_bs->SignalEvent(e[0]);
		CHECK_EQ(probe.calls, 1);
		/* "All events are guaranteed to be signaled before the first notification
		 * action is taken" (CreateEventEx). */
		CHECK_STATUS_KNOWN(probe.seen, EFI_SUCCESS, FW_EDK2, EDK2_GROUPS);
	}
	close_all(e, 2);
}

APP_TEST(group_notify_in_tpl_order)
{
	EFI_GUID *g = tguid(G_EVENT_GROUP + 2);
	struct notify_log log = {0};
	struct log_ctx c[3] = {{&log, 0}, {&log, 1}, {&log, 2}};
	EFI_TPL tpls[3] = {TPL_CALLBACK, TPL_NOTIFY, TPL_CALLBACK};
	EFI_EVENT e[3];

	for (int i = 0; i < 3; i++)
		CHECK_STATUS(create_in(g, EVT_NOTIFY_SIGNAL, tpls[i], log_notify, &c[i], &e[i]),
			     EFI_SUCCESS);
	if (e[0] && e[1] && e[2]) {
		app_bs->SignalEvent(e[2]);
		if (CHECK_EQ(log.count, 3)) {
			CHECK_EQ(log.entry[0].id, 1);
			CHECK_EQ(log.entry[0].tpl, TPL_NOTIFY);
			CHECK_EQ(log.entry[1].tpl, TPL_CALLBACK);
			CHECK_EQ(log.entry[2].tpl, TPL_CALLBACK);
		}
	}
	close_all(e, 3);
}

APP_TEST(group_close_removes_member)
{
	EFI_GUID *g = tguid(G_EVENT_GROUP + 3);
	UINTN n0 = 0, n1 = 0, n2 = 0;
	EFI_EVENT e[3];

	CHECK_STATUS(create_in(g, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n0, &e[0]),
		     EFI_SUCCESS);
	CHECK_STATUS(create_in(g, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n1, &e[1]),
		     EFI_SUCCESS);
	if (e[1])
		CHECK_STATUS(app_bs->CloseEvent(e[1]), EFI_SUCCESS);
	e[1] = NULL;
	CHECK_STATUS(create_in(g, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n2, &e[2]),
		     EFI_SUCCESS);
	if (e[2]) {
		CHECK_STATUS(app_bs->SignalEvent(e[2]), EFI_SUCCESS);
		CHECK_STATUS(app_bs->CloseEvent(e[2]), EFI_SUCCESS);
		e[2] = NULL;
	}
	CHECK_EQ(n0, 1);
	CHECK_EQ(n1, 0);
	CHECK_EQ(n2, 1);
	close_all(e, 3);
}

APP_TEST(group_ready_to_boot)
{
	static EFI_GUID rtb = EFI_EVENT_GROUP_READY_TO_BOOT;
	UINTN n0 = 0, n1 = 0;
	EFI_EVENT e[2];

	CHECK_STATUS(create_in(&rtb, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n0, &e[0]),
		     EFI_SUCCESS);
	CHECK_STATUS(create_in(&rtb, EVT_NOTIFY_SIGNAL, TPL_NOTIFY, count_notify, &n1, &e[1]),
		     EFI_SUCCESS);
	if (e[0] && e[1]) {
		/* The group was signaled before this application started; a new member
		 * starts out waiting. */
		CHECK_EQ(n0 + n1, 0);
		CHECK_STATUS(app_bs->SignalEvent(e[0]), EFI_SUCCESS);
		CHECK_EQ(n0, 1);
		CHECK_EQ(n1, 1);
	}
	close_all(e, 2);
}

static void EFIAPI close_self_notify(EFI_EVENT event, void *p)
{
	(*(UINTN *)p)++;
	app_bs->CloseEvent(event);
}

APP_TEST(close_event_inside_its_notify)
{
	UINTN n = 0;
	EFI_EVENT e;

	if (CHECK_STATUS(create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, close_self_notify, &n, &e),
			 EFI_SUCCESS)) {
		CHECK_STATUS(app_bs->SignalEvent(e), EFI_SUCCESS);
		CHECK_EQ(n, 1);
	}
}

APP_TEST(close_event_cancels_pending_notify)
{
	UINTN n = 0;
	EFI_EVENT e;

	if (!CHECK_STATUS(create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, &e),
			  EFI_SUCCESS))
		return;
	EFI_TPL old = app_bs->RaiseTPL(TPL_CALLBACK);
	app_bs->SignalEvent(e);
	CHECK_STATUS(app_bs->CloseEvent(e), EFI_SUCCESS);
	app_bs->RestoreTPL(old);
	CHECK_EQ(n, 0);
}

APP_TEST(signal_twice_notifies_once)
{
	UINTN n = 0;
	EFI_EVENT e;

	if (!CHECK_STATUS(create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, &e),
			  EFI_SUCCESS))
		return;
	EFI_TPL old = app_bs->RaiseTPL(TPL_CALLBACK);
	CHECK_STATUS(app_bs->SignalEvent(e), EFI_SUCCESS);
	CHECK_STATUS(app_bs->SignalEvent(e), EFI_SUCCESS);
	app_bs->RestoreTPL(old);
	CHECK_EQ(n, 1);
	app_bs->SignalEvent(e);
	CHECK_EQ(n, 2);
	app_bs->CloseEvent(e);
}

struct ctx_probe {
	EFI_EVENT event;
	void *ctx;
	UINTN calls;
};

static void EFIAPI ctx_notify(EFI_EVENT event, void *p)
{
	struct ctx_probe *probe = p;

	probe->event = event;
	probe->ctx = p;
	probe->calls++;
}

APP_TEST(notify_gets_event_and_context)
{
	struct ctx_probe probe = {0};
	EFI_EVENT e;

	if (!CHECK_STATUS(create(EVT_NOTIFY_SIGNAL, TPL_NOTIFY, ctx_notify, &probe, &e),
			  EFI_SUCCESS))
		return;
	app_bs->SignalEvent(e);
	CHECK_EQ(probe.calls, 1);
	CHECK(probe.event == e);
	CHECK(probe.ctx == &probe);
	app_bs->CloseEvent(e);
}

APP_TEST(check_event_on_notify_signal_event)
{
	UINTN n = 0;
	EFI_EVENT e;

	if (!CHECK_STATUS(create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, &e),
			  EFI_SUCCESS))
		return;
	CHECK_STATUS(app_bs->CheckEvent(e), EFI_INVALID_PARAMETER);
	app_bs->SignalEvent(e);
	CHECK_STATUS(app_bs->CheckEvent(e), EFI_INVALID_PARAMETER);
	app_bs->CloseEvent(e);
}

APP_TEST(check_event_clears_signaled_state)
{
	EFI_EVENT e;

	if (!CHECK_STATUS(create(0, 0, NULL, NULL, &e), EFI_SUCCESS))
		return;
	CHECK_STATUS(app_bs->CheckEvent(e), EFI_NOT_READY);
	CHECK_STATUS(app_bs->SignalEvent(e), EFI_SUCCESS);
	CHECK_STATUS(app_bs->SignalEvent(e), EFI_SUCCESS);
	CHECK_STATUS(app_bs->CheckEvent(e), EFI_SUCCESS);
	CHECK_STATUS(app_bs->CheckEvent(e), EFI_NOT_READY);
	app_bs->CloseEvent(e);
}

struct wait_probe {
	UINTN calls;
	UINTN signal_at; /* the notify signals its event on this call (0: never) */
	EFI_TPL tpl;
};

static void EFIAPI wait_notify(EFI_EVENT event, void *p)
{
	struct wait_probe *w = p;

	w->calls++;
	w->tpl = current_tpl();
	if (w->signal_at && w->calls >= w->signal_at)
		app_bs->SignalEvent(event);
}

APP_TEST(check_event_runs_notify_wait_function)
{
	struct wait_probe w = {0, 0, 0};
	EFI_EVENT e;

	if (!CHECK_STATUS(create(EVT_NOTIFY_WAIT, TPL_CALLBACK, wait_notify, &w, &e), EFI_SUCCESS))
		return;
	CHECK_STATUS(app_bs->CheckEvent(e), EFI_NOT_READY);
	CHECK_EQ(w.calls, 1);
	CHECK_EQ(w.tpl, TPL_CALLBACK);
	/* A notify function that signals the event makes CheckEvent succeed at once. */
	w.signal_at = 2;
	CHECK_STATUS(app_bs->CheckEvent(e), EFI_SUCCESS);
	CHECK_EQ(w.calls, 2);
	app_bs->CloseEvent(e);
}

APP_TEST(check_event_signaled_wait_event_skips_notify)
{
	struct wait_probe w = {0, 0, 0};
	EFI_EVENT e;

	if (!CHECK_STATUS(create(EVT_NOTIFY_WAIT, TPL_NOTIFY, wait_notify, &w, &e), EFI_SUCCESS))
		return;
	/* SignalEvent does not run an EVT_NOTIFY_WAIT notify function, and CheckEvent only
	 * queues it for an event that is not signaled. */
	CHECK_STATUS(app_bs->SignalEvent(e), EFI_SUCCESS);
	CHECK_EQ(w.calls, 0);
	CHECK_STATUS(app_bs->CheckEvent(e), EFI_SUCCESS);
	CHECK_EQ(w.calls, 0);
	app_bs->CloseEvent(e);
}

APP_TEST(wait_for_no_events)
{
	UINTN index = 77;
	EFI_EVENT e;

	if (!CHECK_STATUS(create(0, 0, NULL, NULL, &e), EFI_SUCCESS))
		return;
	app_bs->SignalEvent(e);
	CHECK_STATUS(app_bs->WaitForEvent(0, &e, &index), EFI_INVALID_PARAMETER);
	app_bs->CloseEvent(e);
}

APP_TEST(wait_returns_index_and_clears)
{
	EFI_EVENT e[3];
	UINTN index = 77;

	CHECK_STATUS(create(0, 0, NULL, NULL, &e[0]), EFI_SUCCESS);
	CHECK_STATUS(create(0, 0, NULL, NULL, &e[1]), EFI_SUCCESS);
	CHECK_STATUS(create(EVT_TIMER, 0, NULL, NULL, &e[2]), EFI_SUCCESS);
	if (e[0] && e[1] && e[2]) {
		app_bs->SignalEvent(e[1]);
		CHECK_STATUS(app_bs->WaitForEvent(3, e, &index), EFI_SUCCESS);
		CHECK_EQ(index, 1);
		CHECK_STATUS(app_bs->CheckEvent(e[1]), EFI_NOT_READY);
		/* Nothing signaled now: the wait ends when the timer fires. */
		index = 77;
		CHECK_STATUS(app_bs->SetTimer(e[2], TimerRelative, 20 * 10000), EFI_SUCCESS);
		CHECK_STATUS(app_bs->WaitForEvent(3, e, &index), EFI_SUCCESS);
		CHECK_EQ(index, 2);
		CHECK_STATUS(app_bs->CheckEvent(e[2]), EFI_NOT_READY);
	}
	close_all(e, 3);
}

APP_TEST(wait_on_notify_signal_event)
{
	UINTN n = 0, index = 77;
	EFI_EVENT e[2];

	CHECK_STATUS(create(0, 0, NULL, NULL, &e[0]), EFI_SUCCESS);
	CHECK_STATUS(create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, &e[1]), EFI_SUCCESS);
	if (e[0] && e[1]) {
		CHECK_STATUS(app_bs->WaitForEvent(2, e, &index), EFI_INVALID_PARAMETER);
		CHECK_EQ(index, 1);
		EFI_EVENT swapped[2] = {e[1], e[0]};
		index = 77;
		CHECK_STATUS(app_bs->WaitForEvent(2, swapped, &index), EFI_INVALID_PARAMETER);
		CHECK_EQ(index, 0);
	}
	close_all(e, 2);
}

APP_TEST(wait_above_application_tpl)
{
	EFI_EVENT e;
	UINTN index = 77;

	if (!CHECK_STATUS(create(0, 0, NULL, NULL, &e), EFI_SUCCESS))
		return;
	/* Signaled first, so a firmware that does not check the TPL returns at once. */
	app_bs->SignalEvent(e);
	EFI_TPL old = app_bs->RaiseTPL(TPL_CALLBACK);
	EFI_STATUS status = app_bs->WaitForEvent(1, &e, &index);
	app_bs->RestoreTPL(old);
	CHECK_STATUS(status, EFI_UNSUPPORTED);
	app_bs->CloseEvent(e);
}

APP_TEST(wait_runs_notify_wait_until_signaled)
{
	struct wait_probe w = {0, 3, 0};
	EFI_EVENT e;
	UINTN index = 77;

	if (!CHECK_STATUS(create(EVT_NOTIFY_WAIT, TPL_CALLBACK, wait_notify, &w, &e), EFI_SUCCESS))
		return;
	CHECK_STATUS(app_bs->WaitForEvent(1, &e, &index), EFI_SUCCESS);
	CHECK_EQ(index, 0);
	CHECK_EQ(w.calls, 3);
	CHECK_EQ(w.tpl, TPL_CALLBACK);
	app_bs->CloseEvent(e);
}
