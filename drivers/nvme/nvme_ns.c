/* Namespaces as child handles: Identify Namespace, BlockIo and BlockIo2 through blkdev,
 * DiskInfo, the device path <controller>/NVMe(nsid,EUI-64), and the controller's PciIo
 * opened BY_CHILD_CONTROLLER. */
#define LOG_PREFIX "nvme: "
#include "nvme.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define DMA_ALIGN 4	 /* PRP entries address dwords */
#define MAX_NLB 0x10000u /* NLB is a 16-bit count, 0-based */

bool nvme_ns_active(struct nvme_ctrl *c, UINT32 nsid)
{
	for (UINT32 i = 0; i < c->ns_count; i++)
		if (c->ns_ids[i] == nsid)
			return true;
	return false;
}

struct nvme_ns *nvme_ns_find(struct nvme_ctrl *c, UINT32 nsid)
{
	struct nvme_ns *ns;

	list_for_each_entry (ns, &c->namespaces, link)
		if (ns->nsid == nsid)
			return ns;
	return NULL;
}

struct nvme_ns *nvme_ns_on(struct nvme_ctrl *c, EFI_HANDLE handle)
{
	struct nvme_ns *ns;

	list_for_each_entry (ns, &c->namespaces, link)
		if (ns->blk.handle == handle)
			return ns;
	return NULL;
}

static void make_node(NVME_NAMESPACE_DEVICE_PATH *node, UINT32 nsid, const UINT8 *eui64)
{
	mem_set(node, 0, sizeof(*node));
	node->Header.Type = MESSAGING_DEVICE_PATH;
	node->Header.SubType = MSG_NVME_NAMESPACE_DP;
	node->Header.Length[0] = sizeof(*node);
	node->NamespaceId = nsid;
	/* The bytes as Identify gives them, as other firmware does: the text shows them last
	 * byte first. */
	mem_copy(&node->NamespaceUuid, eui64, 8);
}

/* Identify Namespace into the scratch page, parsed. */
static EFI_STATUS identify_ns(struct nvme_ctrl *c, UINT32 nsid, struct nvme_ns_info *info)
{
	EFI_STATUS status = nvme_identify(c, NVME_CNS_NAMESPACE, nsid);

	if (EFI_ERROR(status))
		return status;
	return nvme_parse_namespace(nvme_page(c, NVME_PAGE_SCRATCH), NVME_IDENTIFY_BYTES, info);
}

EFI_STATUS nvme_ns_node(struct nvme_ctrl *c, UINT32 nsid, NVME_NAMESPACE_DEVICE_PATH *node)
{
	struct nvme_ns *ns = nvme_ns_find(c, nsid);
	struct nvme_ns_info info;
	EFI_STATUS status;

	if (ns) {
		make_node(node, nsid, ns->eui64);
		return EFI_SUCCESS;
	}
	status = identify_ns(c, nsid, &info);
	if (status == EFI_UNSUPPORTED) /* a namespace this driver does not use has a path too */
		status = EFI_SUCCESS;
	if (!EFI_ERROR(status))
		make_node(node, nsid, info.eui64);
	return status;
}

static void fill_media(struct nvme_ns *ns, const struct nvme_ns_info *info)
{
	EFI_BLOCK_IO_MEDIA *m = &ns->blk.media;
	UINT32 limit = ns->ctrl->info.max_transfer;

	limit = limit ? MIN(limit, NVME_MAX_TRANSFER) : NVME_MAX_TRANSFER;
	ns->max_blocks = MIN(limit >> info->block_shift, MAX_NLB);
	m->MediaPresent = TRUE;
	m->BlockSize = 1u << info->block_shift;
	m->LastBlock = info->blocks - 1;
	m->IoAlign = DMA_ALIGN;
	/* Writes reach the medium before they complete: nvme_ns_ops flushes the cache. */
	m->WriteCaching = FALSE;
	m->LogicalBlocksPerPhysicalBlock = 1;
}

/* Reads the namespace and fills ns; EFI_UNSUPPORTED for one this driver does not use. */
static EFI_STATUS probe(struct nvme_ns *ns)
{
	struct nvme_ns_info info;
	EFI_STATUS status = identify_ns(ns->ctrl, ns->nsid, &info);

	if (EFI_ERROR(status)) {
		log_debug("namespace %u: %r\n", ns->nsid, status);
		return status;
	}
	if (ns->ctrl->info.max_transfer && ns->ctrl->info.max_transfer < (1u << info.block_shift)) {
		log_debug("namespace %u: a block does not fit in a command\n", ns->nsid);
		return EFI_UNSUPPORTED;
	}
	mem_copy(ns->identify, nvme_page(ns->ctrl, NVME_PAGE_SCRATCH), NVME_IDENTIFY_BYTES);
	mem_copy(ns->eui64, info.eui64, sizeof(ns->eui64));
	blkdev_init(&ns->blk, &nvme_ns_ops);
	fill_media(ns, &info);
	nvme_disk_info_init(ns);
	log_debug("namespace %u: %llu blocks of %u bytes\n", ns->nsid,
		  (unsigned long long)info.blocks, ns->blk.media.BlockSize);
	return EFI_SUCCESS;
}

static EFI_STATUS install(struct nvme_ns *ns)
{
	struct nvme_ctrl *c = ns->ctrl;
	EFI_HANDLE handle = NULL;
	EFI_PCI_IO_PROTOCOL *pci_io;
	EFI_STATUS status = blkdev_install(&ns->blk, &handle, ns->path);

	if (EFI_ERROR(status))
		return status;
	status = protocol_install(&handle, &efi_disk_info_protocol_guid, &ns->disk_info);
	if (EFI_ERROR(status))
		goto err_blkdev;
	status = protocol_open(c->controller, &efi_pci_io_protocol_guid, (void **)&pci_io,
			       c->driver, handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status))
		goto err_disk_info;
	return EFI_SUCCESS;

err_disk_info:
	protocol_uninstall(handle, &efi_disk_info_protocol_guid, &ns->disk_info);
err_blkdev:
	blkdev_uninstall(&ns->blk, ns->path);
	return status;
}

EFI_STATUS nvme_ns_create(struct nvme_ctrl *c, UINT32 nsid)
{
	struct nvme_ns *ns = pool_alloc(sizeof(*ns));
	NVME_NAMESPACE_DEVICE_PATH node;
	EFI_STATUS status;

	if (!ns)
		return EFI_OUT_OF_RESOURCES;
	ns->ctrl = c;
	ns->nsid = nsid;
	status = probe(ns);
	if (EFI_ERROR(status))
		goto err_free;
	make_node(&node, nsid, ns->eui64);
	ns->path = dp_append_node(c->path, &node.Header);
	if (!ns->path) {
		status = EFI_OUT_OF_RESOURCES;
		goto err_free;
	}
	status = install(ns);
	if (EFI_ERROR(status)) {
		log_debug("namespace %u: install: %r\n", nsid, status);
		goto err_path;
	}
	list_add_tail(&ns->link, &c->namespaces);
	return EFI_SUCCESS;

err_path:
	pool_free(ns->path);
err_free:
	pool_free(ns);
	return status;
}

EFI_STATUS nvme_ns_destroy(struct nvme_ns *ns)
{
	struct nvme_ctrl *c = ns->ctrl;
	EFI_HANDLE handle = ns->blk.handle;
	EFI_PCI_IO_PROTOCOL *pci_io;
	EFI_STATUS status;

	protocol_close(c->controller, &efi_pci_io_protocol_guid, c->driver, handle);
	status = protocol_uninstall(handle, &efi_disk_info_protocol_guid, &ns->disk_info);
	if (!EFI_ERROR(status)) {
		status = blkdev_uninstall(&ns->blk, ns->path);
		if (EFI_ERROR(status))
			protocol_install(&handle, &efi_disk_info_protocol_guid, &ns->disk_info);
	}
	if (EFI_ERROR(status)) {
		/* Still in use: the child stays, and so does its claim on the controller. */
		protocol_open(c->controller, &efi_pci_io_protocol_guid, (void **)&pci_io, c->driver,
			      handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	list_del(&ns->link);
	ns->blk.signature = 0;
	pool_free(ns->path);
	pool_free(ns);
	return EFI_SUCCESS;
}
