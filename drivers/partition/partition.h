/* The partition driver's private state: the parent disk it binds to, and one child per
 * partition, each carrying a BlockIo (and BlockIo2) limited to the partition. */
#ifndef DRIVERS_PARTITION_H
#define DRIVERS_PARTITION_H

#include <efi/protocol/block_io2.h>
#include <efi/protocol/disk_io.h>
#include <ember/drivers/partition.h>
#include <ember/lib/util.h>

#define PART_CHILD_SIGNATURE SIGNATURE_32('p', 'a', 'r', 't')

struct part_child {
	UINT32 signature;
	EFI_HANDLE handle;
	EFI_BLOCK_IO_PROTOCOL block_io;
	EFI_BLOCK_IO2_PROTOCOL block_io2;
	EFI_BLOCK_IO_MEDIA media;
	EFI_PARTITION_INFO_PROTOCOL info;
	EFI_DEVICE_PATH_PROTOCOL *device_path;
	EFI_BLOCK_IO_PROTOCOL *parent;	 /* the disk's BlockIo */
	EFI_BLOCK_IO2_PROTOCOL *parent2; /* the disk's BlockIo2, or NULL */
	UINT64 start;			 /* first block on the parent */
	bool system;			 /* carries the ESP GUID tag */
};

/* Creates the child for one partition of the parent controller: its handle with BlockIo,
 * BlockIo2 (when the parent has it), PartitionInfo, DevicePath (parent_path + the entry's
 * node) and the ESP tag, and the parent's DiskIo opened BY_CHILD_CONTROLLER. */
EFI_STATUS part_child_create(EFI_HANDLE driver, EFI_HANDLE controller,
			     EFI_DEVICE_PATH_PROTOCOL *parent_path, EFI_BLOCK_IO_PROTOCOL *parent,
			     EFI_BLOCK_IO2_PROTOCOL *parent2, const struct part_entry *entry);

/* Tears a child down (protocols uninstalled, parent DiskIo closed); EFI_DEVICE_ERROR and the
 * child left intact when something on it refuses to let go. */
EFI_STATUS part_child_destroy(EFI_HANDLE driver, EFI_HANDLE controller, EFI_HANDLE child);

/* Fills the child's BlockIo and BlockIo2 tables (partition_blockio.c). */
void part_child_init_block_io(struct part_child *child);

#endif
