/* blk-test reconnect: each disk's PCI controller is disconnected, which must take the disk's
 * BlockIo away, and connected again, which must bring it back at the same device path
 * (the drivers' Stop and Start, with their child handles). */
#include "blk_test.h"
#include <efi/protocol/pci_io.h>

static EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static EFI_GUID block_io_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* The handle with protocol guid closest to the end of path; NULL if none. */
static EFI_HANDLE locate(EFI_GUID *guid, EFI_DEVICE_PATH_PROTOCOL *path, bool whole)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = path;
	EFI_HANDLE handle = NULL;

	if (EFI_ERROR(app_bs->LocateDevicePath(guid, &rest, &handle)))
		return NULL;
	/* For BlockIo the whole path must match, not a prefix of it. */
	if (whole && !(rest->Type == END_DEVICE_PATH_TYPE &&
		       rest->SubType == END_ENTIRE_DEVICE_PATH_SUBTYPE))
		return NULL;
	return handle;
}

static EFI_DEVICE_PATH_PROTOCOL *copy_path(EFI_HANDLE handle)
{
	EFI_DEVICE_PATH_PROTOCOL *path, *node;
	UINTN size;

	if (EFI_ERROR(app_bs->HandleProtocol(handle, &path_guid, (void **)&path)))
		return NULL;
	for (node = path; node->Type != END_DEVICE_PATH_TYPE;)
		node = (void *)((UINT8 *)node + (node->Length[0] | node->Length[1] << 8));
	size = (UINTN)((UINT8 *)node - (UINT8 *)path) + 4;
	node = app_alloc(size);
	if (node)
		mem_copy(node, path, size);
	return node;
}

static void reconnect(UINTN number, EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_HANDLE controller = locate(&pci_io_guid, path, false);

	if (!CHECK(controller != NULL))
		return;
	CHECK_STATUS(app_bs->DisconnectController(controller, NULL, NULL), EFI_SUCCESS);
	CHECK(locate(&block_io_guid, path, true) == NULL);
	CHECK_STATUS(app_bs->ConnectController(controller, NULL, NULL, TRUE), EFI_SUCCESS);
	if (CHECK(locate(&block_io_guid, path, true) != NULL))
		app_print("disk %u: reconnected\n", (UINT32)number);
}

void blk_reconnect(struct blk_disk *disks, UINTN count)
{
	EFI_DEVICE_PATH_PROTOCOL *paths[BLK_TEST_MAX_DISKS];

	/* Paths first: reconnecting a controller replaces the handles of all its disks. */
	for (UINTN i = 0; i < count; i++)
		paths[i] = copy_path(disks[i].handle);
	for (UINTN i = 0; i < count; i++) {
		if (CHECK(paths[i] != NULL))
			reconnect(i, paths[i]);
		app_free(paths[i]);
	}
	CHECK_EQ(blk_disks(disks, count), count);
}
