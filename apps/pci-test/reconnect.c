/* The PCI bus driver's Stop and a second Start: disconnecting the root bridge removes
 * every PciIo handle (after the device drivers on them stop); connecting it again brings
 * back as many. */
#include "pci_test.h"
#include <efi/protocol/pci_root_bridge_io.h>

static EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static EFI_GUID root_bridge_guid = EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_GUID;

static UINTN count_of(EFI_GUID *guid, EFI_HANDLE *first)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, guid, NULL, &count, &handles)))
		return 0;
	if (first)
		*first = handles[0];
	app_free(handles);
	return count;
}

void pt_reconnect(void)
{
	EFI_HANDLE root = NULL;
	UINTN before = count_of(&pci_io_guid, NULL), after;

	if (!CHECK(count_of(&root_bridge_guid, &root) > 0) || !CHECK(before > 0))
		return;
	CHECK_STATUS(app_bs->DisconnectController(root, NULL, NULL), EFI_SUCCESS);
	CHECK_EQ(count_of(&pci_io_guid, NULL), 0);
	CHECK_STATUS(app_bs->ConnectController(root, NULL, NULL, TRUE), EFI_SUCCESS);
	after = count_of(&pci_io_guid, NULL);
	CHECK_EQ(after, before);
	app_print("pci-test: reconnected the root bridge: %u functions before, %u after\n",
		  (UINT32)before, (UINT32)after);
}
