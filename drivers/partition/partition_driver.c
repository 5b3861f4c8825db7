/* The partition driver (UEFI driver model, a bus driver): binds to a disk (BlockIo, DiskIo
 * and DevicePath, not itself a partition), reads its partition table and creates one child
 * handle per partition. A disk without a table is left alone, so that a file system driver
 * can take the whole disk. */
#define LOG_PREFIX "partition: "
#include "partition.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>

struct disk_reader {
	EFI_DISK_IO_PROTOCOL *disk_io;
	UINT32 media_id;
};

static EFI_STATUS read_disk(void *ctx, UINT64 offset, UINTN size, void *buffer)
{
	struct disk_reader *r = ctx;

	return r->disk_io->ReadDisk(r->disk_io, r->media_id, offset, size, buffer);
}

static EFI_STATUS write_disk(void *ctx, UINT64 offset, UINTN size, const void *buffer)
{
	struct disk_reader *r = ctx;

	return r->disk_io->WriteDisk(r->disk_io, r->media_id, offset, size, (void *)buffer);
}

/* 5.3.2: a damaged GPT copy is rewritten from the valid one, media permitting. */
static void repair_gpt(const struct part_disk *disk, struct part_table *table,
		       EFI_DEVICE_PATH_PROTOCOL *path, bool read_only)
{
	const char *what;
	CHAR16 *text;
	EFI_STATUS status;

	if (table->scheme != PART_SCHEME_GPT || table->primary_valid == table->backup_valid)
		return;
	status = read_only ? EFI_WRITE_PROTECTED : part_gpt_repair(disk, table, &what);
	text = dp_to_text(path, true, true);
	if (EFI_ERROR(status))
		log_warn("%ls: cannot restore the damaged GPT: %r\n", text ? text : u"?", status);
	else
		log_info("%ls: restored the %s GPT\n", text ? text : u"?", what);
	pool_free(text);
}

/* Only HD() and CDROM() nodes name partitions. */
static bool remaining_is_partition(EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return !remaining || dp_is_end(remaining) ||
	       (remaining->Type == MEDIA_DEVICE_PATH &&
		(remaining->SubType == MEDIA_HARDDRIVE_DP || remaining->SubType == MEDIA_CDROM_DP));
}

static EFI_STATUS EFIAPI part_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_STATUS status;

	if (!remaining_is_partition(remaining))
		return EFI_UNSUPPORTED;
	/* Partitions are not partitioned again. */
	if (EFI_ERROR(protocol_get(controller, &efi_block_io_protocol_guid, (void **)&bio)) ||
	    bio->Media->LogicalPartition)
		return EFI_UNSUPPORTED;
	status = driver_can_open(this->DriverBindingHandle, controller, &efi_disk_io_protocol_guid,
				 NULL);
	if (!EFI_ERROR(status))
		status = driver_can_open(this->DriverBindingHandle, controller,
					 &efi_device_path_protocol_guid, NULL);
	return status;
}

/* Says in the debug log what was found, and why a table was refused. */
static void log_table(EFI_DEVICE_PATH_PROTOCOL *path, const struct part_table *t)
{
	static const char *const names[] = {"none", "GPT", "MBR", "El Torito"};
	CHAR16 *text = dp_to_text(path, true, true);
	const CHAR16 *disk = text ? text : u"?";

	if (t->primary_problem && t->backup_problem)
		log_warn("%ls: no valid GPT, so no partitions\n"
			 "  primary: %s\n  backup: %s\n",
			 disk, t->primary_problem, t->backup_problem);
	else if (t->primary_problem)
		log_warn("%ls: primary GPT is damaged (%s); using the backup\n", disk,
			 t->primary_problem);
	else if (t->scheme == PART_SCHEME_GPT && t->backup_problem)
		log_warn("%ls: backup GPT is damaged (%s)\n", disk, t->backup_problem);
	if (t->scheme == PART_SCHEME_NONE && !t->primary_problem)
		log_info("%ls: no partition table%s%s\n", disk, t->problem ? ": " : "",
			 t->problem ? t->problem : "");
	else if (t->scheme != PART_SCHEME_NONE)
		log_printf(t->skipped ? LOG_LEVEL_WARN : LOG_LEVEL_INFO,
			   LOG_PREFIX "%ls: %s, %u partition(s)%s%s\n", disk, names[t->scheme],
			   (UINT32)t->count, t->problem ? "; " : "", t->problem ? t->problem : "");
	pool_free(text);
}

/* Parses the disk and creates its children; returns how many were created. */
static UINTN create_children(EFI_HANDLE driver, EFI_HANDLE controller,
			     EFI_DEVICE_PATH_PROTOCOL *path, EFI_DISK_IO_PROTOCOL *dio,
			     EFI_BLOCK_IO_PROTOCOL *bio, EFI_BLOCK_IO2_PROTOCOL *bio2)
{
	struct part_table *table = pool_alloc(sizeof(*table));
	struct disk_reader reader = {dio, bio->Media->MediaId};
	struct part_disk disk = {.block_size = bio->Media->BlockSize,
				 .last_block = bio->Media->LastBlock,
				 .read = read_disk,
				 .write = write_disk,
				 .ctx = &reader};
	UINTN created = 0;

	if (!table) {
		log_debug("no memory for the partition table\n");
		return 0;
	}
	part_parse(&disk, table);
	log_table(path, table);
	repair_gpt(&disk, table, path, bio->Media->ReadOnly);
	for (UINTN i = 0; i < table->count; i++) {
		EFI_STATUS status =
		    part_child_create(driver, controller, path, bio, bio2, &table->entries[i]);
		if (!EFI_ERROR(status))
			created++;
		else
			log_warn("cannot create partition %u: %r\n", (UINT32)i, status);
	}
	pool_free(table);
	return created;
}

static EFI_STATUS EFIAPI part_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	EFI_DISK_IO_PROTOCOL *dio;
	EFI_DEVICE_PATH_PROTOCOL *path;
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_BLOCK_IO2_PROTOCOL *bio2 = NULL;
	EFI_STATUS status;

	status = protocol_open(controller, &efi_disk_io_protocol_guid, (void **)&dio, driver,
			       controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("cannot open the disk's DiskIo: %r\n", status);
		return status;
	}
	status = protocol_open(controller, &efi_device_path_protocol_guid, (void **)&path, driver,
			       controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("cannot open the disk's device path: %r\n", status);
		goto err_disk_io;
	}
	status = protocol_open(controller, &efi_block_io_protocol_guid, (void **)&bio, driver,
			       controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);
	if (EFI_ERROR(status)) {
		log_debug("cannot open the disk's BlockIo: %r\n", status);
		goto err_path;
	}
	if (EFI_ERROR(protocol_open(controller, &efi_block_io2_protocol_guid, (void **)&bio2,
				    driver, controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL)))
		bio2 = NULL;
	status = EFI_NO_MEDIA;
	if (!bio->Media->MediaPresent || !bio->Media->BlockSize) {
		log_debug("no media in the disk\n");
		goto err_path;
	}
	status = EFI_NOT_FOUND;
	if (!create_children(driver, controller, path, dio, bio, bio2)) {
		log_debug("no partitions, so the disk is left to others\n");
		goto err_path;
	}
	return EFI_SUCCESS;

err_path:
	protocol_close(controller, &efi_device_path_protocol_guid, driver, controller);
err_disk_io:
	protocol_close(controller, &efi_disk_io_protocol_guid, driver, controller);
	return status;
}

static EFI_STATUS EFIAPI part_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	bool all_gone = true;

	if (!child_count) {
		protocol_close(controller, &efi_device_path_protocol_guid, driver, controller);
		protocol_close(controller, &efi_disk_io_protocol_guid, driver, controller);
		return EFI_SUCCESS;
	}
	for (UINTN i = 0; i < child_count; i++)
		if (EFI_ERROR(part_child_destroy(driver, controller, children[i])))
			all_gone = false;
	return all_gone ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

static EFI_DRIVER_BINDING_PROTOCOL part_binding = {
    .Supported = part_supported,
    .Start = part_start,
    .Stop = part_stop,
    /* Above file system drivers, which would otherwise take a partitioned disk whole. */
    .Version = 0x20,
};

static const struct ember_driver part_driver = {
    .name = u"Partition Driver (GPT, MBR, El Torito)",
    .binding = &part_binding,
};
EMBER_DRIVER(INIT_NORMAL, part_driver);
