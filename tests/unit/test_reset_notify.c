/* EFI_RESET_NOTIFICATION_PROTOCOL (core/runtime/reset_notify.c, UEFI 2.10 8.5.1): the
 * argument checks, the registered functions called in order by a ResetSystem before
 * ExitBootServices with its arguments, and ignored after it. */
#include <setjmp.h>
#include <string.h>

#include "support/test.h"
#include "support/test_platform.h"
#include "block_dev.h"
#include "../../core/services.h"
#include <ember/lib/guids.h>
#include <efi/protocol/reset_notification.h>

static jmp_buf reset_return;
static char calls[8];
static int call_count;
static EFI_RESET_TYPE seen_type;
static EFI_STATUS seen_status;
static UINTN seen_size;
static EFI_RESET_NOTIFICATION_PROTOCOL *protocol;

static void record(char which, EFI_RESET_TYPE type, EFI_STATUS status, UINTN size)
{
	if (call_count < (int)sizeof(calls) - 1)
		calls[call_count++] = which;
	seen_type = type;
	seen_status = status;
	seen_size = size;
}

static VOID EFIAPI notify_a(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, VOID *data)
{
	record('a', type, status, size);
}

static VOID EFIAPI notify_b(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, VOID *data)
{
	record('b', type, status, size);
}

/* Unregisters itself and the function after it, as a driver tearing down might. */
static VOID EFIAPI notify_unregistering(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size,
					VOID *data)
{
	record('u', type, status, size);
	protocol->UnregisterResetNotify(protocol, notify_unregistering);
	protocol->UnregisterResetNotify(protocol, notify_b);
}

/* Breaks the rule that a notification must not reset: the reset goes on, the list is not
 * run again. */
static VOID EFIAPI notify_resetting(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, VOID *data)
{
	record('r', type, status, size);
	efi_reset_system(EfiResetCold, EFI_SUCCESS, 0, NULL);
}

static void catch_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, const void *data)
{
	longjmp(reset_return, 1);
}

static void reset(EFI_RESET_TYPE type, EFI_STATUS status)
{
	static CHAR16 reason[] = u"why";

	calls[0] = 0;
	call_count = 0;
	test_set_reset_handler(catch_reset);
	if (setjmp(reset_return) == 0)
		core_rt->ResetSystem(type, status, sizeof(reason), reason);
	test_set_reset_handler(NULL);
	calls[call_count] = 0;
}

/* The protocol is published by an init step: the shared fixture runs them once. */
static bool locate(void)
{
	test_install_builtin_drivers();
	return EXPECT_STATUS(efi_locate_protocol((EFI_GUID *)&efi_reset_notification_protocol_guid,
						 NULL, (void **)&protocol),
			     EFI_SUCCESS);
}

TEST(reset_notify_argument_checks)
{
	if (!locate())
		return;
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_a), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_a), EFI_SUCCESS);
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_a), EFI_ALREADY_STARTED);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_a), EFI_SUCCESS);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_a), EFI_INVALID_PARAMETER);
}

TEST(reset_notify_runs_in_order_before_exit_boot_services)
{
	if (!locate())
		return;
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_b), EFI_SUCCESS);
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_a), EFI_SUCCESS);
	reset(EfiResetShutdown, EFI_DEVICE_ERROR);
	EXPECT(strcmp(calls, "ba") == 0);
	EXPECT_EQ(seen_type, EfiResetShutdown);
	EXPECT_EQ(seen_status, EFI_DEVICE_ERROR);
	EXPECT_EQ(seen_size, sizeof(u"why"));

	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_b), EFI_SUCCESS);
	reset(EfiResetWarm, EFI_SUCCESS);
	EXPECT(strcmp(calls, "a") == 0);

	/* After ExitBootServices the functions may be gone with the memory: ignored. */
	core_boot_services_exited = true;
	reset(EfiResetCold, EFI_SUCCESS);
	core_boot_services_exited = false;
	EXPECT(strcmp(calls, "") == 0);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_a), EFI_SUCCESS);
}

TEST(reset_notify_survives_changes_while_it_runs)
{
	if (!locate())
		return;
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_unregistering), EFI_SUCCESS);
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_b), EFI_SUCCESS);
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_a), EFI_SUCCESS);
	reset(EfiResetCold, EFI_SUCCESS);
	EXPECT(strcmp(calls, "ua") == 0); /* b was unregistered before its turn */
	reset(EfiResetCold, EFI_SUCCESS);
	EXPECT(strcmp(calls, "a") == 0);
	/* The entries unregistered during the run are gone: both register again. */
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_b), EFI_SUCCESS);
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_unregistering), EFI_SUCCESS);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_unregistering), EFI_SUCCESS);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_b), EFI_SUCCESS);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_a), EFI_SUCCESS);

	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_resetting), EFI_SUCCESS);
	EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_a), EFI_SUCCESS);
	reset(EfiResetShutdown, EFI_SUCCESS);
	EXPECT(strcmp(calls, "r") == 0);
	reset(EfiResetShutdown, EFI_SUCCESS); /* and the next reset runs the list again */
	EXPECT(strcmp(calls, "r") == 0);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_resetting), EFI_SUCCESS);
	EXPECT_STATUS(protocol->UnregisterResetNotify(protocol, notify_a), EFI_SUCCESS);
}

/* In the child process: the reset ends it, after the checks on what the notification saw. */
static void watchdog_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, const void *data)
{
	calls[call_count] = 0;
	EXPECT(strcmp(calls, "a") == 0);
	EXPECT_EQ(seen_type, EfiResetCold);
	EXPECT_EQ(seen_status, EFI_TIMEOUT);
	longjmp(reset_return, 1);
}

static void watchdog_fires(void)
{
	if (!locate() ||
	    !EXPECT_STATUS(protocol->RegisterResetNotify(protocol, notify_a), EFI_SUCCESS))
		return;
	call_count = 0;
	EXPECT_STATUS(core_bs->SetWatchdogTimer(1, 0, 0, NULL), EFI_SUCCESS);
	test_set_reset_handler(watchdog_reset);
	if (setjmp(reset_return) == 0) {
		for (int ms = 0; ms < 2000; ms++)
			test_advance_time_ns(1000000);
		EXPECT(!"the watchdog did not reset");
	}
}

/* The watchdog's reset is a ResetSystem like any other: the notifications run. In a process
 * of its own: the reset leaves the timer tick halfway. */
TEST(reset_notify_runs_when_the_watchdog_fires)
{
	RUN_ISOLATED(watchdog_fires);
}
