/* A block device in memory for tests of the storage drivers: a handle carrying
 * EFI_BLOCK_IO_PROTOCOL (revision 3) over a byte array and a VenHw() device path, counting
 * the calls it serves and checking IoAlign as a DMA device would. */
#ifndef EMBER_TEST_BLOCK_DEV_H
#define EMBER_TEST_BLOCK_DEV_H

#include <efi/protocol/block_io.h>
#include <efi/protocol/device_path.h>

#pragma pack(push, 1)
struct test_block_dev_path {
	VENDOR_DEVICE_PATH vendor;
	UINT32 index;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

struct test_block_dev {
	EFI_BLOCK_IO_PROTOCOL block_io;
	EFI_BLOCK_IO_MEDIA media;
	struct test_block_dev_path path;
	EFI_HANDLE handle;
	UINT8 *data; /* the medium, owned by the caller */
	UINTN reads, writes, flushes;
};

/* Installs a device over data (size bytes, a multiple of block_size). */
struct test_block_dev *test_block_dev_create(UINT8 *data, UINT64 size, UINT32 block_size,
					     UINT32 io_align);
/* Disconnects every driver from it and removes it. */
void test_block_dev_destroy(struct test_block_dev *dev);

/* Installs the built-in drivers (EMBER_DRIVER) once per test process. */
void test_install_builtin_drivers(void);

#endif
