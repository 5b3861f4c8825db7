/* EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL on the controller's handle (UEFI 2.10, 13.15): a
 * caller's command runs on the admin or the I/O queue with its buffer mapped through PciIo;
 * the namespace functions walk the active namespace list. Commands run blocking (the mode
 * does not claim NONBLOCKIO), so Event is not used. */
#define LOG_PREFIX "nvme: "
#include "nvme.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define IO_ALIGN 4
#define NSID_ALL 0xffffffffu
/* The direction of a command's data, in the two low bits of its opcode (NVMe 1.4, 5). */
#define DATA_TO_DEVICE 1
#define DATA_FROM_DEVICE 2

static struct nvme_ctrl *to_ctrl(EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL *this)
{
	struct nvme_ctrl *c;

	if (!this)
		return NULL;
	c = container_of(this, struct nvme_ctrl, pass_thru);
	return c->signature == NVME_CTRL_SIGNATURE ? c : NULL;
}

/* Commands run at TPL_CALLBACK (or the caller's, if higher), as blkdev's requests do, so
 * that a command from an event notification never lands in the middle of another. */
static EFI_TPL lock(void)
{
	EFI_TPL now = tpl_current();

	return tpl_raise(now > TPL_CALLBACK ? now : TPL_CALLBACK);
}

static bool namespace_ok(struct nvme_ctrl *c, UINT32 nsid, UINT8 queue)
{
	if (nsid == NSID_ALL || nvme_ns_active(c, nsid))
		return true;
	/* Admin commands may name the controller (0) or any namespace it could have. */
	return queue == NVME_ADMIN_QUEUE && nsid <= c->info.namespaces;
}

/* The checks that need no command sent, in the order of 13.15.2's statuses. */
static EFI_STATUS check_packet(struct nvme_ctrl *c, UINT32 nsid,
			       EFI_NVM_EXPRESS_PASS_THRU_COMMAND_PACKET *p)
{
	UINT8 opcode;

	if (!p || !p->NvmeCmd || !p->NvmeCompletion || p->QueueType > NVME_IO_QUEUE)
		return EFI_INVALID_PARAMETER;
	if ((p->TransferLength && !p->TransferBuffer) ||
	    ((UINTN)p->TransferBuffer & (IO_ALIGN - 1)) ||
	    ((UINTN)p->MetadataBuffer & (IO_ALIGN - 1)) || !namespace_ok(c, nsid, p->QueueType))
		return EFI_INVALID_PARAMETER;
	opcode = p->NvmeCmd->Cdw0.Opcode;
	if (p->TransferLength && !(opcode & 3))
		return EFI_INVALID_PARAMETER; /* a command without data */
	/* No metadata, fused or bidirectional commands; the queues are the driver's. */
	if (p->MetadataLength || p->NvmeCmd->Cdw0.FusedOperation != NORMAL_CMD ||
	    (p->TransferLength && (opcode & 3) == 3))
		return EFI_UNSUPPORTED;
	if (p->QueueType == NVME_ADMIN_QUEUE &&
	    (opcode == NVME_ADMIN_DELETE_SQ || opcode == NVME_ADMIN_CREATE_SQ ||
	     opcode == NVME_ADMIN_DELETE_CQ || opcode == NVME_ADMIN_CREATE_CQ))
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static void build_sqe(struct nvme_sqe *sqe, UINT32 nsid, const EFI_NVM_EXPRESS_COMMAND *in)
{
	UINT32 *cdw[] = {&sqe->cdw2,  &sqe->cdw3,  &sqe->cdw10, &sqe->cdw11,
			 &sqe->cdw12, &sqe->cdw13, &sqe->cdw14, &sqe->cdw15};
	const UINT32 given[] = {in->Cdw2,  in->Cdw3,  in->Cdw10, in->Cdw11,
				in->Cdw12, in->Cdw13, in->Cdw14, in->Cdw15};

	mem_set(sqe, 0, sizeof(*sqe));
	sqe->cdw0 = in->Cdw0.Opcode;
	sqe->nsid = nsid;
	for (UINTN i = 0; i < ARRAY_SIZE(given); i++)
		if (in->Flags & (1u << i))
			*cdw[i] = given[i];
}

static UINT64 timeout_ns(UINT64 units)
{
	if (!units || units > UINT64_MAX / 100)
		return NVME_FOREVER;
	return units * 100;
}

static void report(const struct nvme_cqe *cqe, EFI_NVM_EXPRESS_COMPLETION *out)
{
	out->DW0 = cqe->dw0;
	out->DW1 = cqe->dw1;
	out->DW2 = cqe->sq_head | (UINT32)cqe->sq_id << 16;
	out->DW3 = cqe->cid | (UINT32)cqe->status << 16;
}

/* Maps the caller's buffer; EFI_BAD_BUFFER_SIZE (TransferLength what can move) when it is
 * too long for one command or the mapping came back short. */
static EFI_STATUS map_buffer(struct nvme_ctrl *c, EFI_NVM_EXPRESS_PASS_THRU_COMMAND_PACKET *p,
			     UINT64 *addr, void **mapping)
{
	UINT32 max =
	    c->info.max_transfer ? MIN(c->info.max_transfer, NVME_MAX_TRANSFER) : NVME_MAX_TRANSFER;
	EFI_PCI_IO_PROTOCOL_OPERATION op = (p->NvmeCmd->Cdw0.Opcode & 3) == DATA_TO_DEVICE
					       ? EfiPciIoOperationBusMasterRead
					       : EfiPciIoOperationBusMasterWrite;
	UINTN bytes = p->TransferLength;
	EFI_STATUS status;

	if (p->TransferLength > max) {
		p->TransferLength = max;
		return EFI_BAD_BUFFER_SIZE;
	}
	status = c->pci_io->Map(c->pci_io, op, p->TransferBuffer, &bytes, addr, mapping);
	if (EFI_ERROR(status))
		return status;
	if (bytes < p->TransferLength || (*addr & (IO_ALIGN - 1))) {
		c->pci_io->Unmap(c->pci_io, *mapping);
		p->TransferLength = (*addr & (IO_ALIGN - 1)) ? 0 : (UINT32)bytes;
		return EFI_BAD_BUFFER_SIZE;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS run(struct nvme_ctrl *c, UINT32 nsid, EFI_NVM_EXPRESS_PASS_THRU_COMMAND_PACKET *p)
{
	struct nvme_queue *q = p->QueueType == NVME_IO_QUEUE ? &c->io : &c->admin;
	struct nvme_cmd cmd = {.timeout_ns = timeout_ns(p->CommandTimeout)};
	void *mapping = NULL;
	UINT64 addr;
	EFI_STATUS status;

	build_sqe(&cmd.sqe, nsid, p->NvmeCmd);
	if (p->TransferLength) {
		status = map_buffer(c, p, &addr, &mapping);
		if (EFI_ERROR(status))
			return status;
		nvme_prp_fill(c, &cmd.sqe, addr, p->TransferLength);
	}
	status = nvme_exec(c, q, &cmd);
	if (mapping)
		c->pci_io->Unmap(c->pci_io, mapping);
	report(&cmd.cqe, p->NvmeCompletion);
	return status;
}

static EFI_STATUS EFIAPI pass_thru(EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL *this, UINT32 nsid,
				   EFI_NVM_EXPRESS_PASS_THRU_COMMAND_PACKET *packet,
				   EFI_EVENT event)
{
	struct nvme_ctrl *c = to_ctrl(this);
	EFI_STATUS status;

	if (!c)
		return EFI_INVALID_PARAMETER;
	status = check_packet(c, nsid, packet);
	if (!EFI_ERROR(status)) {
		EFI_TPL old = lock();

		status = run(c, nsid, packet);
		tpl_restore(old);
	}
	return status;
}

static EFI_STATUS EFIAPI get_next_namespace(EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL *this, UINT32 *nsid)
{
	struct nvme_ctrl *c = to_ctrl(this);
	UINT32 i = 0;

	if (!c || !nsid)
		return EFI_INVALID_PARAMETER;
	if (*nsid != NSID_ALL) {
		while (i < c->ns_count && c->ns_ids[i] != *nsid)
			i++;
		if (i == c->ns_count)
			return EFI_INVALID_PARAMETER;
		i++;
	}
	if (i >= c->ns_count)
		return EFI_NOT_FOUND;
	*nsid = c->ns_ids[i];
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI build_device_path(EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL *this, UINT32 nsid,
					   EFI_DEVICE_PATH_PROTOCOL **path)
{
	struct nvme_ctrl *c = to_ctrl(this);
	NVME_NAMESPACE_DEVICE_PATH node;
	EFI_STATUS status;
	EFI_TPL old;

	if (!c || !path)
		return EFI_INVALID_PARAMETER;
	if (!nvme_ns_active(c, nsid))
		return EFI_NOT_FOUND;
	old = lock();
	status = nvme_ns_node(c, nsid, &node);
	tpl_restore(old);
	if (EFI_ERROR(status))
		return EFI_DEVICE_ERROR;
	*path = pool_dup(&node, sizeof(node));
	return *path ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

static EFI_STATUS EFIAPI get_namespace(EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL *this,
				       EFI_DEVICE_PATH_PROTOCOL *path, UINT32 *nsid)
{
	struct nvme_ctrl *c = to_ctrl(this);
	NVME_NAMESPACE_DEVICE_PATH given, known;
	EFI_STATUS status;
	EFI_TPL old;

	if (!c || !path || !nsid)
		return EFI_INVALID_PARAMETER;
	if (path->Type != MESSAGING_DEVICE_PATH || path->SubType != MSG_NVME_NAMESPACE_DP ||
	    dp_node_length(path) != sizeof(given))
		return EFI_UNSUPPORTED;
	mem_copy(&given, path, sizeof(given)); /* a node need not be aligned */
	if (!nvme_ns_active(c, given.NamespaceId))
		return EFI_NOT_FOUND;
	old = lock();
	status = nvme_ns_node(c, given.NamespaceId, &known);
	tpl_restore(old);
	if (EFI_ERROR(status) || given.NamespaceUuid != known.NamespaceUuid)
		return EFI_NOT_FOUND;
	*nsid = given.NamespaceId;
	return EFI_SUCCESS;
}

void nvme_pass_thru_init(struct nvme_ctrl *c)
{
	c->mode.Attributes = EFI_NVM_EXPRESS_PASS_THRU_ATTRIBUTES_PHYSICAL |
			     EFI_NVM_EXPRESS_PASS_THRU_ATTRIBUTES_LOGICAL |
			     EFI_NVM_EXPRESS_PASS_THRU_ATTRIBUTES_CMD_SET_NVM;
	c->mode.IoAlign = IO_ALIGN;
	c->mode.NvmeVersion = c->version;
	c->pass_thru.Mode = &c->mode;
	c->pass_thru.PassThru = pass_thru;
	c->pass_thru.GetNextNamespace = get_next_namespace;
	c->pass_thru.BuildDevicePath = build_device_path;
	c->pass_thru.GetNamespace = get_namespace;
}
