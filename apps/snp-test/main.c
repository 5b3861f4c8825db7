/* snp-test: finds the SNP of the machine's NIC, names the driver that manages the PCI
 * function (Ember's virtio-net driver, OVMF's, or an option ROM's such as iPXE's), checks the
 * SNP child's device path ends in MAC(CurrentAddress, IfType), opens the SNP EXCLUSIVE, then
 * checks the state machine, the argument checks and a real exchange with QEMU's user
 * network (ARP). With the argument "identify" it stops after naming the driver and checking
 * the device path (for other drivers' SNPs, such as iPXE's, which ignores the state machine
 * and dereferences NULL arguments). With "bench" (or a file \\snp-bench beside it) it times
 * a few MiB through Transmit instead of the checks (bench.c). Prints "snp-test: N passed, M failed"
 * and powers the machine off, as scripts/run-ovmf expects. */
#include "snp_test.h"
#include <efi/protocol/component_name2.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/simple_file_system.h>
#include <efi/protocol/pci_io.h>
#include <ember/lib/devpath_node.h>

EFI_SIMPLE_NETWORK_PROTOCOL *snp;

static EFI_GUID snp_guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;
static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static EFI_GUID name2_guid = EFI_COMPONENT_NAME2_PROTOCOL_GUID;

/* Prints the name of the driver that holds the PCI function's PciIo BY_DRIVER. */
static void print_driver(EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *opens = NULL;
	EFI_COMPONENT_NAME2_PROTOCOL *name2;
	EFI_HANDLE pci;
	UINTN count = 0;
	CHAR16 *name;

	if (EFI_ERROR(app_bs->LocateDevicePath(&pci_io_guid, &path, &pci)) ||
	    EFI_ERROR(app_bs->OpenProtocolInformation(pci, &pci_io_guid, &opens, &count))) {
		app_print("snp-test: driver: no PCI function\n");
		return;
	}
	for (UINTN i = 0; i < count; i++) {
		if (!(opens[i].Attributes & EFI_OPEN_PROTOCOL_BY_DRIVER))
			continue;
		if (EFI_ERROR(app_bs->HandleProtocol(opens[i].AgentHandle, &name2_guid,
						     (void **)&name2)) ||
		    EFI_ERROR(name2->GetDriverName(name2, (CHAR8 *)"en", &name)))
			name = (CHAR16 *)u"(no name)";
		app_print("snp-test: driver: %ls\n", name);
	}
	app_bs->FreePool(opens);
}

/* The last node of the SNP handle's path: MAC(CurrentAddress, IfType). */
static void check_mac_node(EFI_DEVICE_PATH_PROTOCOL *path)
{
	const MAC_ADDR_DEVICE_PATH *mac = NULL;

	for (EFI_DEVICE_PATH_PROTOCOL *n = path; !dp_is_end(n); n = dp_next(n))
		mac = (const MAC_ADDR_DEVICE_PATH *)n;
	if (!CHECK(mac && mac->Header.Type == MESSAGING_DEVICE_PATH &&
		   mac->Header.SubType == MSG_MAC_ADDR_DP))
		return;
	CHECK(!mem_cmp(mac->MacAddress.Addr, snp->Mode->CurrentAddress.Addr, 6));
	CHECK_EQ(mac->IfType, snp->Mode->IfType);
}

/* Whether path's last node is MAC(); its length (bytes) in *size. */
static bool ends_in_mac(EFI_DEVICE_PATH_PROTOCOL *path, UINTN *size)
{
	EFI_DEVICE_PATH_PROTOCOL *last = NULL;

	*size = dp_size(path);
	for (EFI_DEVICE_PATH_PROTOCOL *n = path; !dp_is_end(n); n = dp_next(n))
		last = n;
	return last && last->Type == MESSAGING_DEVICE_PATH && last->SubType == MSG_MAC_ADDR_DP;
}

/* The NIC's own SNP: of the SNP handles (OVMF's network stack adds more, for VLANs and
 * such), the one with the shortest device path that ends in a MAC() node. */
static EFI_HANDLE find_nic(void)
{
	EFI_HANDLE *handles = NULL, nic = NULL;
	EFI_DEVICE_PATH_PROTOCOL *path;
	UINTN count = 0, best = (UINTN)-1, size;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &snp_guid, NULL, &count, &handles)))
		return NULL;
	app_print("snp-test: %u SNP handle(s)\n", (unsigned)count);
	for (UINTN i = 0; i < count; i++)
		if (!EFI_ERROR(app_bs->HandleProtocol(handles[i], &dp_guid, (void **)&path)) &&
		    ends_in_mac(path, &size) && size < best) {
			best = size;
			nic = handles[i];
		}
	app_bs->FreePool(handles);
	return nic;
}

/* Takes the SNP for the app alone (a stack holding it BY_DRIVER is stopped) and brings it
 * to Stopped whatever state that stack left it in. */
static bool take_snp(EFI_HANDLE nic)
{
	if (!CHECK_STATUS(app_bs->OpenProtocol(nic, &snp_guid, (void **)&snp, app_image, NULL,
					       EFI_OPEN_PROTOCOL_EXCLUSIVE),
			  EFI_SUCCESS))
		return false;
	if (snp->Mode->State == EfiSimpleNetworkInitialized)
		snp->Shutdown(snp);
	if (snp->Mode->State == EfiSimpleNetworkStarted)
		snp->Stop(snp);
	return CHECK_EQ(snp->Mode->State, EfiSimpleNetworkStopped);
}

/* A file \snp-bench beside the app (how scripts/bench-net asks OVMF, which passes no
 * arguments to a removable-media boot). */
static bool has_bench_file(void)
{
	EFI_GUID image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_GUID fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image = NULL;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs = NULL;
	EFI_FILE_PROTOCOL *root = NULL, *file = NULL;

	if (EFI_ERROR(app_bs->HandleProtocol(app_image, &image_guid, (void **)&image)) ||
	    !image->DeviceHandle ||
	    EFI_ERROR(app_bs->HandleProtocol(image->DeviceHandle, &fs_guid, (void **)&fs)) ||
	    EFI_ERROR(fs->OpenVolume(fs, &root)))
		return false;
	bool found =
	    !EFI_ERROR(root->Open(root, &file, (CHAR16 *)u"\\snp-bench", EFI_FILE_MODE_READ, 0));

	if (found)
		file->Close(file);
	root->Close(root);
	return found;
}

static void print_mode(void)
{
	const UINT8 *a = snp->Mode->CurrentAddress.Addr;

	app_print("snp-test: MAC %02x:%02x:%02x:%02x:%02x:%02x, media %s\n", a[0], a[1], a[2], a[3],
		  a[4], a[5],
		  !snp->Mode->MediaPresentSupported ? "unknown"
		  : snp->Mode->MediaPresent	    ? "present"
						    : "absent");
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	EFI_HANDLE nic;

	app_init(image, st);
	app_print("snp-test on %ls\n", st->FirmwareVendor);
	nic = find_nic();
	if (CHECK(nic != NULL) &&
	    CHECK_STATUS(app_bs->HandleProtocol(nic, &dp_guid, (void **)&path), EFI_SUCCESS) &&
	    take_snp(nic)) {
		print_driver(path);
		print_mode();
		check_mac_node(path);
		if (app_has_arg("bench") || has_bench_file()) {
			snp_bench();
		} else if (!app_has_arg("identify")) {
			snp_check_states();
			snp_check_arguments();
			snp_check_arp();
		}
		if (snp->Mode->State == EfiSimpleNetworkInitialized)
			snp->Shutdown(snp);
		if (snp->Mode->State == EfiSimpleNetworkStarted)
			snp->Stop(snp);
		app_bs->CloseProtocol(nic, &snp_guid, app_image, NULL);
	}
	check_print_summary("snp-test");
	app_rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
