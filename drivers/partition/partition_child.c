/* Child handles for partitions: creation with every protocol a partition carries, and
 * teardown that gives way (leaving the child whole) when a user refuses to stop. */
#define LOG_PREFIX "partition: "
#include "partition.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

/* The partition's media: the parent's, as far as the parent's revision defines it, with
 * its own size. The alignment fields are zero for logical partitions (13.9). */
static void init_media(struct part_child *c, const struct part_entry *entry)
{
	EFI_BLOCK_IO_MEDIA *pm = c->parent->Media;
	UINTN known = offsetof(EFI_BLOCK_IO_MEDIA, LowestAlignedLba);

	if (c->parent->Revision >= EFI_BLOCK_IO_PROTOCOL_REVISION3)
		known = sizeof(EFI_BLOCK_IO_MEDIA);
	mem_copy(&c->media, pm, known);
	c->media.LogicalPartition = TRUE;
	c->media.LastBlock = entry->blocks - 1;
	c->media.LowestAlignedLba = 0;
	c->media.LogicalBlocksPerPhysicalBlock = 0;
}

static struct part_child *new_child(EFI_DEVICE_PATH_PROTOCOL *parent_path,
				    EFI_BLOCK_IO_PROTOCOL *parent, EFI_BLOCK_IO2_PROTOCOL *parent2,
				    const struct part_entry *entry)
{
	struct part_child *c = pool_alloc(sizeof(*c));

	if (!c) {
		log_debug("no memory for a child\n");
		return NULL;
	}
	c->signature = PART_CHILD_SIGNATURE;
	c->parent = parent;
	c->parent2 = parent2;
	c->start = entry->start;
	c->system = entry->system;
	c->info = entry->info;
	init_media(c, entry);
	part_child_init_block_io(c);
	c->device_path = dp_append_node(parent_path, &entry->node.header);
	if (!c->device_path) {
		log_debug("no memory for a child's device path\n");
		pool_free(c);
		return NULL;
	}
	return c;
}

static void free_child(struct part_child *c)
{
	c->signature = 0;
	pool_free(c->device_path);
	pool_free(c);
}

/* Installs the child's protocols: BlockIo2 and the ESP tag only where they apply. */
static EFI_STATUS install_child(struct part_child *c)
{
	const EFI_GUID *bio2 = c->parent2 ? &efi_block_io2_protocol_guid : NULL;
	const EFI_GUID *esp = c->system ? &efi_part_type_efi_system_part_guid : NULL;

	/* The optional pairs go last: a NULL GUID ends the list there. */
	if (!bio2)
		return protocol_install_multiple(&c->handle, &efi_device_path_protocol_guid,
						 c->device_path, &efi_block_io_protocol_guid,
						 &c->block_io, &efi_partition_info_protocol_guid,
						 &c->info, esp, NULL, NULL);
	return protocol_install_multiple(&c->handle, &efi_device_path_protocol_guid, c->device_path,
					 &efi_block_io_protocol_guid, &c->block_io,
					 &efi_partition_info_protocol_guid, &c->info, bio2,
					 &c->block_io2, esp, NULL, NULL);
}

static EFI_STATUS uninstall_child(struct part_child *c)
{
	const EFI_GUID *bio2 = c->parent2 ? &efi_block_io2_protocol_guid : NULL;
	const EFI_GUID *esp = c->system ? &efi_part_type_efi_system_part_guid : NULL;

	if (!bio2)
		return protocol_uninstall_multiple(c->handle, &efi_device_path_protocol_guid,
						   c->device_path, &efi_block_io_protocol_guid,
						   &c->block_io, &efi_partition_info_protocol_guid,
						   &c->info, esp, NULL, NULL);
	return protocol_uninstall_multiple(c->handle, &efi_device_path_protocol_guid,
					   c->device_path, &efi_block_io_protocol_guid,
					   &c->block_io, &efi_partition_info_protocol_guid,
					   &c->info, bio2, &c->block_io2, esp, NULL, NULL);
}

EFI_STATUS part_child_create(EFI_HANDLE driver, EFI_HANDLE controller,
			     EFI_DEVICE_PATH_PROTOCOL *parent_path, EFI_BLOCK_IO_PROTOCOL *parent,
			     EFI_BLOCK_IO2_PROTOCOL *parent2, const struct part_entry *entry)
{
	struct part_child *c = new_child(parent_path, parent, parent2, entry);
	EFI_DISK_IO_PROTOCOL *dio;
	EFI_STATUS status;

	if (!c)
		return EFI_OUT_OF_RESOURCES;
	status = install_child(c);
	if (EFI_ERROR(status)) {
		log_debug("cannot install a child's protocols: %r\n", status);
		goto err_free;
	}
	status = protocol_open(controller, &efi_disk_io_protocol_guid, (void **)&dio, driver,
			       c->handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status)) {
		log_debug("cannot open DiskIo for a child: %r\n", status);
		goto err_uninstall;
	}
	return EFI_SUCCESS;

err_uninstall:
	uninstall_child(c);
err_free:
	free_child(c);
	return status;
}

EFI_STATUS part_child_destroy(EFI_HANDLE driver, EFI_HANDLE controller, EFI_HANDLE child)
{
	EFI_BLOCK_IO_PROTOCOL *bio;
	struct part_child *c;
	EFI_DISK_IO_PROTOCOL *dio;

	if (EFI_ERROR(protocol_open(child, &efi_block_io_protocol_guid, (void **)&bio, driver,
				    controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL)))
		return EFI_DEVICE_ERROR;
	c = container_of(bio, struct part_child, block_io);
	if (c->signature != PART_CHILD_SIGNATURE)
		return EFI_DEVICE_ERROR;
	protocol_close(controller, &efi_disk_io_protocol_guid, driver, child);
	if (EFI_ERROR(uninstall_child(c))) {
		protocol_open(controller, &efi_disk_io_protocol_guid, (void **)&dio, driver, child,
			      EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return EFI_DEVICE_ERROR;
	}
	free_child(c);
	return EFI_SUCCESS;
}
