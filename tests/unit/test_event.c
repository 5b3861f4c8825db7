/* TPL, events, timers. */
#include "support/test.h"
#include "../../core/services.h"

static int calls[8], order[8], order_len;

static VOID EFIAPI count_notify(EFI_EVENT event, VOID *context)
{
	int i = (int)(uintptr_t)context;
	calls[i]++;
	if (order_len < 8)
		order[order_len++] = i;
}

static void reset_counts(void)
{
	for (int i = 0; i < 8; i++)
		calls[i] = order[i] = 0;
	order_len = 0;
}

TEST(create_event_arguments)
{
	EFI_EVENT e;

	EXPECT_STATUS(efi_create_event(0, 0, NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_create_event(0x1234, 0, NULL, NULL, &e), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_create_event(EVT_NOTIFY_WAIT | EVT_NOTIFY_SIGNAL, TPL_CALLBACK,
				       count_notify, NULL, &e),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_create_event(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, NULL, NULL, &e),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_create_event(EVT_NOTIFY_SIGNAL, TPL_APPLICATION, count_notify, NULL, &e),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_create_event(EVT_NOTIFY_SIGNAL, TPL_HIGH_LEVEL, count_notify, NULL, &e),
		      EFI_INVALID_PARAMETER);
	EFI_GUID group = {0x1, 0x2, 0x3, {4, 5, 6, 7, 8, 9, 10, 11}};
	EXPECT_STATUS(efi_create_event_ex(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, count_notify,
					  NULL, &group, &e),
		      EFI_INVALID_PARAMETER);
	ASSERT_STATUS(efi_create_event(EVT_TIMER, 0, NULL, NULL, &e), EFI_SUCCESS);
	EXPECT_STATUS(efi_close_event(e), EFI_SUCCESS);
	EXPECT_STATUS(efi_close_event(e), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_signal_event((EFI_EVENT)&group), EFI_INVALID_PARAMETER);
}

TEST(notifications_wait_for_lower_tpl_and_run_highest_first)
{
	EFI_EVENT a, b, c;
	EFI_TPL old;

	reset_counts();
	ASSERT_STATUS(
	    efi_create_event(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, (void *)1, &a),
	    EFI_SUCCESS);
	ASSERT_STATUS(efi_create_event(EVT_NOTIFY_SIGNAL, TPL_NOTIFY, count_notify, (void *)2, &b),
		      EFI_SUCCESS);
	ASSERT_STATUS(
	    efi_create_event(EVT_NOTIFY_SIGNAL, TPL_CALLBACK + 1, count_notify, (void *)3, &c),
	    EFI_SUCCESS);
	old = efi_raise_tpl(TPL_NOTIFY);
	EXPECT_EQ(old, TPL_APPLICATION);
	EXPECT_STATUS(efi_signal_event(a), EFI_SUCCESS);
	EXPECT_STATUS(efi_signal_event(b), EFI_SUCCESS);
	EXPECT_STATUS(efi_signal_event(c), EFI_SUCCESS);
	EXPECT_EQ(calls[1] + calls[2] + calls[3], 0);
	efi_restore_tpl(old);
	EXPECT_EQ(order_len, 3);
	EXPECT_EQ(order[0], 2);
	EXPECT_EQ(order[1], 3);
	EXPECT_EQ(order[2], 1);
	/* Signalled once more while not yet notified: still one notification. */
	old = efi_raise_tpl(TPL_NOTIFY);
	efi_signal_event(a);
	efi_signal_event(a);
	efi_restore_tpl(old);
	EXPECT_EQ(calls[1], 2);
	efi_close_event(a);
	efi_close_event(b);
	efi_close_event(c);
}

TEST(check_event_and_wait)
{
	EFI_EVENT s, w, plain;
	UINTN index = 99;

	ASSERT_STATUS(
	    efi_create_event(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, (void *)1, &s),
	    EFI_SUCCESS);
	ASSERT_STATUS(efi_create_event(EVT_NOTIFY_WAIT, TPL_CALLBACK, count_notify, (void *)2, &w),
		      EFI_SUCCESS);
	ASSERT_STATUS(efi_create_event(0, 0, NULL, NULL, &plain), EFI_SUCCESS);
	reset_counts();
	EXPECT_STATUS(efi_check_event(s), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_check_event(w), EFI_NOT_READY);
	EXPECT_EQ(calls[2], 1); /* the wait notification ran to look */
	EXPECT_STATUS(efi_check_event(plain), EFI_NOT_READY);
	efi_signal_event(plain);
	EXPECT_STATUS(efi_check_event(plain), EFI_SUCCESS);
	EXPECT_STATUS(efi_check_event(plain), EFI_NOT_READY); /* checking clears it */
	EFI_EVENT list[2] = {plain, s};
	efi_signal_event(plain);
	EXPECT_STATUS(efi_wait_for_event(2, list, &index), EFI_SUCCESS);
	EXPECT_EQ(index, 0);
	list[0] = s;
	EXPECT_STATUS(efi_wait_for_event(1, list, &index), EFI_INVALID_PARAMETER);
	EXPECT_EQ(index, 0);
	EXPECT_STATUS(efi_wait_for_event(0, list, &index), EFI_INVALID_PARAMETER);
	EFI_TPL old = efi_raise_tpl(TPL_CALLBACK);
	EXPECT_STATUS(efi_wait_for_event(1, &plain, &index), EFI_UNSUPPORTED);
	efi_restore_tpl(old);
	efi_close_event(s);
	efi_close_event(w);
	efi_close_event(plain);
}

TEST(event_groups)
{
	EFI_GUID group = {0x11223344, 0x5566, 0x7788, {1, 2, 3, 4, 5, 6, 7, 8}};
	EFI_EVENT a, b, c;

	reset_counts();
	ASSERT_STATUS(efi_create_event_ex(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, (void *)1,
					  &group, &a),
		      EFI_SUCCESS);
	ASSERT_STATUS(
	    efi_create_event_ex(EVT_NOTIFY_SIGNAL, TPL_NOTIFY, count_notify, (void *)2, &group, &b),
	    EFI_SUCCESS);
	ASSERT_STATUS(efi_create_event(EVT_NOTIFY_SIGNAL, TPL_NOTIFY, count_notify, (void *)3, &c),
		      EFI_SUCCESS);
	EXPECT_STATUS(efi_signal_event(a), EFI_SUCCESS);
	EXPECT_EQ(calls[1], 1);
	EXPECT_EQ(calls[2], 1);
	EXPECT_EQ(calls[3], 0);
	event_signal_group(&group);
	EXPECT_EQ(calls[1], 2);
	efi_close_event(a);
	efi_close_event(b);
	efi_close_event(c);
}

TEST(timers_relative_periodic_cancel)
{
	EFI_EVENT rel, per;

	reset_counts();
	ASSERT_STATUS(efi_create_event(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify,
				       (void *)1, &rel),
		      EFI_SUCCESS);
	ASSERT_STATUS(efi_create_event(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify,
				       (void *)2, &per),
		      EFI_SUCCESS);
	EXPECT_STATUS(efi_set_timer(rel, TimerRelative, 50000), EFI_SUCCESS); /* 5 ms */
	EXPECT_STATUS(efi_set_timer(per, TimerPeriodic, 10000), EFI_SUCCESS); /* 1 ms */
	EXPECT_STATUS(efi_set_timer(per, (EFI_TIMER_DELAY)3, 1), EFI_INVALID_PARAMETER);
	for (int ms = 0; ms < 10; ms++)
		test_advance_time_ns(1000000);
	EXPECT_EQ(calls[1], 1);
	EXPECT_EQ(calls[2], 10);
	EXPECT_STATUS(efi_set_timer(per, TimerCancel, 0), EFI_SUCCESS);
	test_advance_time_ns(5000000);
	EXPECT_EQ(calls[2], 10);
	/* Relative 0: the next tick. */
	EXPECT_STATUS(efi_set_timer(rel, TimerRelative, 0), EFI_SUCCESS);
	test_advance_time_ns(1);
	EXPECT_EQ(calls[1], 2);
	efi_close_event(rel);
	efi_close_event(per);
	EFI_EVENT not_timer;
	ASSERT_STATUS(efi_create_event(0, 0, NULL, NULL, &not_timer), EFI_SUCCESS);
	EXPECT_STATUS(efi_set_timer(not_timer, TimerRelative, 1), EFI_INVALID_PARAMETER);
	efi_close_event(not_timer);
}

TEST(wait_for_a_timer)
{
	EFI_EVENT t;
	UINTN index;
	UINT64 start = test_now_ns();

	ASSERT_STATUS(efi_create_event(EVT_TIMER, 0, NULL, NULL, &t), EFI_SUCCESS);
	ASSERT_STATUS(efi_set_timer(t, TimerRelative, 30 * 10000), EFI_SUCCESS);
	EXPECT_STATUS(efi_wait_for_event(1, &t, &index), EFI_SUCCESS);
	EXPECT(test_now_ns() - start >= 30 * 1000000ULL);
	EXPECT(test_now_ns() - start < 40 * 1000000ULL);
	efi_close_event(t);
}
