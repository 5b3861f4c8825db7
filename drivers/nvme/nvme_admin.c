/* Admin commands the driver sends itself (NVM Express 1.4, 5): Identify, and creating the
 * I/O queue pair; reading what the controller and its namespaces are; recovering after a
 * lost command. */
#define LOG_PREFIX "nvme: "
#include "nvme.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define QUEUE_CONTIGUOUS 0x1u /* PC in CDW11 of Create I/O CQ and SQ */
#define IO_QUEUE_ID 1u
#define VERSION_1_1 0x10100u

EFI_STATUS nvme_identify(struct nvme_ctrl *c, UINT8 cns, UINT32 nsid)
{
	struct nvme_cmd cmd = {.timeout_ns = NVME_ADMIN_TIMEOUT_NS};

	cmd.sqe.cdw0 = NVME_ADMIN_IDENTIFY;
	cmd.sqe.nsid = nsid;
	cmd.sqe.cdw10 = cns;
	mem_set(nvme_page(c, NVME_PAGE_SCRATCH), 0, NVME_IDENTIFY_BYTES);
	nvme_prp_fill(c, &cmd.sqe, nvme_page_addr(c, NVME_PAGE_SCRATCH), NVME_IDENTIFY_BYTES);
	return nvme_exec(c, &c->admin, &cmd);
}

static EFI_STATUS create_queue(struct nvme_ctrl *c, UINT8 opcode, enum nvme_page page, UINT32 cdw11)
{
	struct nvme_cmd cmd = {.timeout_ns = NVME_ADMIN_TIMEOUT_NS};

	cmd.sqe.cdw0 = opcode;
	cmd.sqe.prp1 = nvme_page_addr(c, page);
	cmd.sqe.cdw10 = (UINT32)(c->io.entries - 1) << 16 | IO_QUEUE_ID;
	cmd.sqe.cdw11 = cdw11;
	return nvme_exec(c, &c->admin, &cmd);
}

EFI_STATUS nvme_create_io_queues(struct nvme_ctrl *c)
{
	EFI_STATUS status;

	nvme_queue_init(c, &c->io, IO_QUEUE_ID, c->admin.entries);
	/* Interrupts off (IEN clear): the driver polls. */
	status = create_queue(c, NVME_ADMIN_CREATE_CQ, NVME_PAGE_IO_CQ, QUEUE_CONTIGUOUS);
	if (EFI_ERROR(status)) {
		log_debug("Create I/O Completion Queue: %r\n", status);
		return status;
	}
	status = create_queue(c, NVME_ADMIN_CREATE_SQ, NVME_PAGE_IO_SQ,
			      IO_QUEUE_ID << 16 | QUEUE_CONTIGUOUS);
	if (EFI_ERROR(status)) {
		log_debug("Create I/O Submission Queue: %r\n", status);
		return status;
	}
	c->io_created = true;
	return EFI_SUCCESS;
}

/* The active namespaces: the list (CNS 02h) from 1.1 on, every ID up to NN before. */
static EFI_STATUS read_namespaces(struct nvme_ctrl *c)
{
	UINT32 largest = c->info.namespaces;
	EFI_STATUS status;

	/* One allocation: the IDs, then a byte for each. */
	c->ns_ids = pool_alloc(NVME_MAX_NAMESPACES * (sizeof(UINT32) + 1));
	if (!c->ns_ids)
		return EFI_OUT_OF_RESOURCES;
	c->ns_given_up = (UINT8 *)(c->ns_ids + NVME_MAX_NAMESPACES);
	if (c->version < VERSION_1_1) {
		c->ns_count = MIN(largest, NVME_MAX_NAMESPACES);
		for (UINT32 i = 0; i < c->ns_count; i++)
			c->ns_ids[i] = i + 1;
		return EFI_SUCCESS;
	}
	status = nvme_identify(c, NVME_CNS_ACTIVE_NS_LIST, 0);
	if (!EFI_ERROR(status))
		status = nvme_parse_ns_list(nvme_page(c, NVME_PAGE_SCRATCH), NVME_IDENTIFY_BYTES, 0,
					    largest, c->ns_ids, NVME_MAX_NAMESPACES, &c->ns_count);
	if (EFI_ERROR(status)) {
		log_debug("active namespace list: %r\n", status);
		pool_free(c->ns_ids);
		c->ns_ids = NULL;
	}
	return status;
}

EFI_STATUS nvme_read_identity(struct nvme_ctrl *c)
{
	EFI_STATUS status = nvme_identify(c, NVME_CNS_CONTROLLER, 0);

	if (!EFI_ERROR(status))
		status = nvme_parse_controller(nvme_page(c, NVME_PAGE_SCRATCH), NVME_IDENTIFY_BYTES,
					       &c->info);
	if (EFI_ERROR(status)) {
		log_debug("Identify Controller: %r\n", status);
		return status;
	}
	status = read_namespaces(c);
	if (!EFI_ERROR(status))
		log_debug("\"%s\", version %#x, %u active namespaces\n", c->info.model, c->version,
			  c->ns_count);
	return status;
}

EFI_STATUS nvme_ctrl_recover(struct nvme_ctrl *c)
{
	bool had_io = c->io.entries != 0; /* the queues were created once */
	EFI_STATUS status = nvme_ctrl_enable(c);

	if (!EFI_ERROR(status) && had_io)
		status = nvme_create_io_queues(c);
	if (EFI_ERROR(status)) {
		log_warn("the controller did not come back: %r\n", status);
		c->needs_reset = true;
	}
	return status;
}
