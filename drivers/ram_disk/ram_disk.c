/* EFI_RAM_DISK_PROTOCOL (UEFI 2.10, 13.17), published once at start-up: each registered
 * range of memory becomes a handle with a device path ending in RamDisk() and BlockIo and
 * BlockIo2 through the blkdev front end, connected at once so that the partition, El Torito
 * and FAT drivers bind and the boot manager sees its removable-media file. Virtual CDs (and
 * persistent ones) are read-only with 2048-byte blocks, as a CD drive shows an ISO image;
 * every other type is a writable disk of 512-byte blocks. */
#define LOG_PREFIX "ram disk: "
#include <efi/protocol/ram_disk.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/drivers/blkdev.h>
#include <ember/lib/guids.h>
#include <ember/lib/list.h>
#include <ember/lib/str.h>

#define CD_BLOCK 2048
#define DISK_BLOCK 512

struct ram_disk {
	struct blkdev blk;
	struct list link;
	UINT8 *base;
	EFI_DEVICE_PATH_PROTOCOL *path; /* installed on blk.handle; owned here */
	MEDIA_RAM_DISK_DEVICE_PATH node;
};

static struct list ram_disks = LIST_INIT(ram_disks);

static EFI_STATUS rd_read(struct blkdev *dev, EFI_LBA lba, UINTN size, void *buffer)
{
	struct ram_disk *d = container_of(dev, struct ram_disk, blk);

	mem_copy(buffer, d->base + lba * dev->media.BlockSize, size);
	return EFI_SUCCESS;
}

static EFI_STATUS rd_write(struct blkdev *dev, EFI_LBA lba, UINTN size, const void *buffer)
{
	struct ram_disk *d = container_of(dev, struct ram_disk, blk);

	mem_copy(d->base + lba * dev->media.BlockSize, buffer, size);
	return EFI_SUCCESS;
}

static const struct blkdev_ops ram_disk_ops = {.read = rd_read, .write = rd_write};

static bool is_cd_type(const EFI_GUID *type)
{
	return guid_eq(type, &efi_virtual_cd_guid) ||
	       guid_eq(type, &efi_persistent_virtual_cd_guid);
}

/* The registered disk whose path is path, byte for byte. */
static struct ram_disk *find_by_path(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	UINTN size = dp_size(path);
	struct ram_disk *d;

	list_for_each_entry (d, &ram_disks, link)
		if (dp_size(d->path) == size && !mem_cmp(d->path, path, size))
			return d;
	return NULL;
}

/* The registered disk a RamDisk() node names (addresses, type and instance). */
static struct ram_disk *find_by_node(const MEDIA_RAM_DISK_DEVICE_PATH *node)
{
	struct ram_disk *d;

	list_for_each_entry (d, &ram_disks, link)
		if (!mem_cmp(&d->node, node, sizeof(*node)))
			return d;
	return NULL;
}

static void fill_media(EFI_BLOCK_IO_MEDIA *media, UINT64 size, bool cd)
{
	media->MediaPresent = TRUE;
	media->ReadOnly = cd;
	media->BlockSize = cd ? CD_BLOCK : DISK_BLOCK;
	media->LastBlock = size / media->BlockSize - 1;
	media->LogicalBlocksPerPhysicalBlock = 1;
	media->OptimalTransferLengthGranularity = 1;
}

/* A new, unregistered disk over [base, base+size) with its device path built; NULL when
 * out of memory. */
static struct ram_disk *ram_disk_new(UINT64 base, UINT64 size, const EFI_GUID *type,
				     const EFI_DEVICE_PATH_PROTOCOL *parent)
{
	struct ram_disk *d = pool_alloc(sizeof(*d));

	if (!d)
		return NULL;
	d->base = (UINT8 *)(uintptr_t)base;
	dp_set_node(&d->node.Header, MEDIA_DEVICE_PATH, MEDIA_RAM_DISK_DP, sizeof(d->node));
	d->node.StartingAddr = base;
	d->node.EndingAddr = base + size - 1; /* inclusive, as 10.3.5.9 has it */
	d->node.TypeGuid = *type;
	d->node.Instance = 0;
	d->path = dp_append_node(parent, &d->node.Header);
	if (!d->path) {
		pool_free(d);
		return NULL;
	}
	list_init(&d->link);
	blkdev_init(&d->blk, &ram_disk_ops);
	fill_media(&d->blk.media, size, is_cd_type(type));
	return d;
}

static void ram_disk_free(struct ram_disk *d)
{
	pool_free(d->path);
	pool_free(d);
}

/* The checks of Register beyond 13.17's: the range must be memory the core handed out (so
 * reads never fault) and hold one whole block at least; the parent one valid instance. */
static EFI_STATUS check_range(UINT64 base, UINT64 size, const EFI_GUID *type,
			      const EFI_DEVICE_PATH_PROTOCOL *parent)
{
	UINT64 block = is_cd_type(type) ? CD_BLOCK : DISK_BLOCK;

	if (base + size < base || !mem_is_allocated((const void *)(uintptr_t)base, (UINTN)size)) {
		log_debug("0x%llx+0x%llx is not allocated memory\n", base, size);
		return EFI_INVALID_PARAMETER;
	}
	if (size < block) {
		log_debug("0x%llx bytes hold no %llu-byte block\n", size, block);
		return EFI_INVALID_PARAMETER;
	}
	if (parent && (!dp_is_valid(parent, 0) || dp_is_multi_instance(parent))) {
		log_debug("the parent device path is not one valid instance\n");
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ram_disk_register(UINT64 RamDiskBase, UINT64 RamDiskSize,
					   EFI_GUID *RamDiskType,
					   EFI_DEVICE_PATH_PROTOCOL *ParentDevicePath,
					   EFI_DEVICE_PATH_PROTOCOL **DevicePath)
{
	struct ram_disk *d;
	EFI_HANDLE handle = NULL;
	EFI_STATUS status;

	if (!DevicePath || !RamDiskType || RamDiskSize == 0)
		return EFI_INVALID_PARAMETER;
	status = check_range(RamDiskBase, RamDiskSize, RamDiskType, ParentDevicePath);
	if (EFI_ERROR(status))
		return status;
	d = ram_disk_new(RamDiskBase, RamDiskSize, RamDiskType, ParentDevicePath);
	if (!d)
		return EFI_OUT_OF_RESOURCES;
	*DevicePath = dp_dup(d->path);
	if (!*DevicePath) {
		status = EFI_OUT_OF_RESOURCES;
		goto err_free;
	}
	if (find_by_path(d->path)) {
		status = EFI_ALREADY_STARTED;
		goto err_copy;
	}
	status = blkdev_install(&d->blk, &handle, d->path);
	if (EFI_ERROR(status)) {
		log_debug("installing BlockIo: %r\n", status);
		goto err_copy;
	}
	list_add_tail(&d->link, &ram_disks);
	driver_connect(handle, NULL, NULL, true);
	return EFI_SUCCESS;

err_copy:
	pool_free(*DevicePath);
	*DevicePath = NULL;
err_free:
	ram_disk_free(d);
	return status;
}

/* The RamDisk() node of path, wherever it is; NULL when there is none. */
static const MEDIA_RAM_DISK_DEVICE_PATH *ram_disk_node(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	for (; !dp_is_end(path); path = dp_next(path))
		if (path->Type == MEDIA_DEVICE_PATH && path->SubType == MEDIA_RAM_DISK_DP &&
		    dp_node_length(path) == sizeof(MEDIA_RAM_DISK_DEVICE_PATH))
			return (const MEDIA_RAM_DISK_DEVICE_PATH *)path;
	return NULL;
}

static EFI_STATUS EFIAPI ram_disk_unregister(EFI_DEVICE_PATH_PROTOCOL *DevicePath)
{
	const MEDIA_RAM_DISK_DEVICE_PATH *node;
	MEDIA_RAM_DISK_DEVICE_PATH copy;
	struct ram_disk *d;
	EFI_STATUS status;

	if (!DevicePath)
		return EFI_INVALID_PARAMETER;
	if (!dp_is_valid(DevicePath, 0) || !(node = ram_disk_node(DevicePath)))
		return EFI_UNSUPPORTED;
	mem_copy(&copy, node, sizeof(copy)); /* the node may lie unaligned */
	d = find_by_node(&copy);
	if (!d)
		return EFI_NOT_FOUND;
	/* Uninstalling stops the drivers above (partitions, FAT) first; one that refuses,
	 * a volume with files open for example, keeps the disk registered. */
	status = blkdev_uninstall(&d->blk, d->path);
	if (EFI_ERROR(status)) {
		log_debug("uninstalling BlockIo: %r\n", status);
		return status;
	}
	list_del(&d->link);
	ram_disk_free(d);
	return EFI_SUCCESS;
}

static EFI_RAM_DISK_PROTOCOL ram_disk_protocol = {
    .Register = ram_disk_register,
    .Unregister = ram_disk_unregister,
};

/* Publishes EFI_RAM_DISK_PROTOCOL on a handle of its own. */
static EFI_STATUS ram_disk_publish(void)
{
	EFI_HANDLE handle = NULL;
	EFI_STATUS status =
	    protocol_install(&handle, &efi_ram_disk_protocol_guid, &ram_disk_protocol);

	if (EFI_ERROR(status))
		log_debug("installing the protocol: %r\n", status);
	return status;
}
EMBER_INIT(INIT_NORMAL, ram_disk_publish);
