/* EFI_RESET_NOTIFICATION_PROTOCOL (UEFI 2.10, 8.5.1): the statuses of registering and
 * unregistering. That a registered function runs at ResetSystem is checked by a program
 * that resets (tests/aarch64/timer_reset.c) and by Ember's unit tests: this app resets
 * only after ExitBootServices, when the list is ignored. */
#define APP_TEST_SUITE "87_reset_notify"
#include "conformance.h"
#include <efi/protocol/reset_notification.h>

static EFI_GUID reset_notification_guid = EFI_RESET_NOTIFICATION_PROTOCOL_GUID;

static VOID EFIAPI never_called(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, VOID *data)
{
}

APP_TEST(reset_notify_register_and_unregister)
{
	EFI_RESET_NOTIFICATION_PROTOCOL *p = NULL;

	if (!CHECK_STATUS(app_bs->LocateProtocol(&reset_notification_guid, NULL, (void **)&p),
			  EFI_SUCCESS))
		return;
	CHECK_STATUS(p->RegisterResetNotify(p, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(p->UnregisterResetNotify(p, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(p->UnregisterResetNotify(p, never_called), EFI_INVALID_PARAMETER);
	if (!CHECK_STATUS(p->RegisterResetNotify(p, never_called), EFI_SUCCESS))
		return;
	CHECK_STATUS(p->RegisterResetNotify(p, never_called), EFI_ALREADY_STARTED);
	CHECK_STATUS(p->UnregisterResetNotify(p, never_called), EFI_SUCCESS);
	CHECK_STATUS(p->UnregisterResetNotify(p, never_called), EFI_INVALID_PARAMETER);
}
