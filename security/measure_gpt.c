/* PCR 5, the GPT of the disk a boot image comes from (PFP 1.05 3.3.4.6, 10.4.6:
 * EV_EFI_GPT_EVENT with UEFI_GPT_DATA, the primary header and its used entries in table
 * order), once a boot. The table is checked by the partition parser first: a damaged
 * primary GPT is not measured. */
#define LOG_PREFIX "measure: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/drivers/measure.h>
#include <ember/drivers/measure_boot.h>
#include <ember/drivers/partition.h>
#include <ember/drivers/tcg_events.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/protocol/block_io.h>
#include <efi/protocol/disk_io.h>

struct gpt_disk {
	EFI_DISK_IO_PROTOCOL *dio;
	UINT32 media_id;
};

static EFI_STATUS read_disk(void *ctx, UINT64 offset, UINTN size, void *buffer)
{
	struct gpt_disk *d = ctx;

	return d->dio->ReadDisk(d->dio, d->media_id, offset, size, buffer);
}

/* The GPT partition node of path, NULL if it names no GPT partition. */
static const HARDDRIVE_DEVICE_PATH *gpt_node(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	for (const EFI_DEVICE_PATH_PROTOCOL *n = path; !dp_is_end(n); n = dp_next(n)) {
		const HARDDRIVE_DEVICE_PATH *hd = (const HARDDRIVE_DEVICE_PATH *)n;
		if (n->Type == MEDIA_DEVICE_PATH && n->SubType == MEDIA_HARDDRIVE_DP &&
		    dp_node_length(n) >= sizeof(*hd) &&
		    hd->MBRType == MBR_TYPE_EFI_PARTITION_TABLE_HEADER &&
		    hd->SignatureType == SIGNATURE_TYPE_GUID)
			return hd;
	}
	return NULL;
}

/* The disk (DiskIo and BlockIo) whose device path is the part of path before node. */
static bool find_disk(const EFI_DEVICE_PATH_PROTOCOL *path, const void *node,
		      EFI_DISK_IO_PROTOCOL **dio, EFI_BLOCK_IO_PROTOCOL **bio)
{
	UINTN prefix = (UINTN)((const UINT8 *)node - (const UINT8 *)path);
	EFI_DEVICE_PATH_PROTOCOL *disk = pool_alloc(prefix + sizeof(EFI_DEVICE_PATH_PROTOCOL));
	EFI_DEVICE_PATH_PROTOCOL *rest = disk;
	EFI_HANDLE handle = NULL;
	bool found;

	if (!disk)
		return false;
	mem_copy(disk, path, prefix);
	*(EFI_DEVICE_PATH_PROTOCOL *)((UINT8 *)disk + prefix) = (EFI_DEVICE_PATH_PROTOCOL){
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
	found = !EFI_ERROR(handle_locate_device_path(&efi_disk_io_protocol_guid, &rest, &handle)) &&
		dp_is_end(rest) &&
		!EFI_ERROR(protocol_get(handle, &efi_disk_io_protocol_guid, (void **)dio)) &&
		!EFI_ERROR(protocol_get(handle, &efi_block_io_protocol_guid, (void **)bio));
	pool_free(disk);
	return found;
}

/* UEFI_GPT_DATA from the checked primary header h: its used entries, read again whole. */
static UEFI_GPT_DATA *gpt_event(const struct part_disk *disk, const EFI_PARTITION_TABLE_HEADER *h,
				UINTN *size)
{
	UINTN entry_size = h->SizeOfPartitionEntry;
	UINTN array_size = (UINTN)h->NumberOfPartitionEntries * entry_size;
	UINT8 *array = pool_alloc(array_size);
	UEFI_GPT_DATA *event = pool_alloc(sizeof(*event) + array_size);
	UINT8 *out;

	if (!array || !event ||
	    EFI_ERROR(disk->read(disk->ctx, h->PartitionEntryLBA * disk->block_size, array_size,
				 array))) {
		log_debug("GPT entries unreadable or no memory\n");
		pool_free(event);
		event = NULL;
		goto out;
	}
	event->UEFIPartitionHeader = *h;
	out = (UINT8 *)(event + 1);
	for (UINTN i = 0; i < h->NumberOfPartitionEntries; i++) {
		const UINT8 *entry = array + i * entry_size;
		if (mem_is_zero(entry, sizeof(EFI_GUID))) /* PartitionTypeGUID unused */
			continue;
		mem_copy(out, entry, entry_size);
		out += entry_size;
		event->NumberOfPartitions++;
	}
	*size = (UINTN)(out - (UINT8 *)event);
out:
	pool_free(array);
	return event;
}

static bool measure_disk_gpt(const struct part_disk *disk)
{
	struct part_table *table = pool_alloc(sizeof(*table));
	UEFI_GPT_DATA *event = NULL;
	UINTN size = 0;

	if (!table)
		return false;
	if (EFI_ERROR(part_parse_gpt(disk, table)) || !table->primary_valid) {
		log_debug("no valid primary GPT to measure\n");
		goto out;
	}
	event = gpt_event(disk, &table->header, &size);
	if (event)
		measure_event(PCR_BOOT_MANAGER_CONFIG, EV_EFI_GPT_EVENT, event, size, event,
			      (UINT32)size);
out:
	pool_free(event);
	pool_free(table);
	return event != NULL;
}

void measure_gpt(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	static bool measured;
	const HARDDRIVE_DEVICE_PATH *node;
	EFI_DISK_IO_PROTOCOL *dio;
	EFI_BLOCK_IO_PROTOCOL *bio;
	struct gpt_disk d;
	struct part_disk disk;

	if (measured || !path || !measure_enabled() || !(node = gpt_node(path)) ||
	    !find_disk(path, node, &dio, &bio))
		return;
	d = (struct gpt_disk){dio, bio->Media->MediaId};
	disk = (struct part_disk){.block_size = bio->Media->BlockSize,
				  .last_block = bio->Media->LastBlock,
				  .read = read_disk,
				  .ctx = &d};
	measured = measure_disk_gpt(&disk);
}
