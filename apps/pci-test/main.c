/* pci-test: prints PCI functions and firmware tables and checks them. Arguments:
 *   reconnect  first disconnects the PCI root bridge and connects it again (the bus driver
 *              tears its children down and enumerates anew);
 *   stay       returns to the firmware afterwards (so QEMU can be asked about the machine)
 *              instead of powering the machine off, as scripts/run-ovmf expects. */
#include "pci_test.h"

void *pt_config_table(const EFI_GUID *guid)
{
	for (UINTN i = 0; i < app_st->NumberOfTableEntries; i++)
		if (guid_eq(&app_st->ConfigurationTable[i].VendorGuid, guid))
			return app_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

UINT8 pt_sum(const void *p, UINTN n)
{
	const UINT8 *b = p;
	UINT8 sum = 0;

	while (n--)
		sum += *b++;
	return sum;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	app_init(image, st);
	pt_bgrt_snapshot();
	app_print("pci-test on %ls\n", st->FirmwareVendor);
	if (app_has_arg("reconnect"))
		pt_reconnect();
	pt_list_pci();
	pt_check_pci_io();
	pt_check_acpi();
	pt_check_bgrt();
	pt_check_smbios();
	check_print_summary("pci-test");
	if (!app_has_arg("stay"))
		app_rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return check_totals.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}
