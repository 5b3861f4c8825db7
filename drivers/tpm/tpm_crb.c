/* The CRB (command response buffer) interface of the TCG PC Client Platform TPM Profile
 * (PTP 1.05, 6.5): request locality 0, cmdReady, command into the buffer, start, wait for
 * the TPM to clear start, response out of the buffer, goIdle. */
#define LOG_PREFIX "tpm-crb: "
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "tpm_wait.h"

#define CRB_LOC_CTRL 0x08
#define CRB_LOC_CTRL_REQUEST 0x1
#define CRB_LOC_STS 0x0C
#define CRB_LOC_STS_GRANTED 0x1
#define CRB_CTRL_REQ 0x40
#define CRB_CTRL_REQ_CMD_READY 0x1
#define CRB_CTRL_REQ_GO_IDLE 0x2
#define CRB_CTRL_STS 0x44
#define CRB_CTRL_STS_ERROR 0x1
#define CRB_CTRL_STS_IDLE 0x2
#define CRB_CTRL_CANCEL 0x48
#define CRB_CTRL_START 0x4C
#define CRB_CTRL_CMD_SIZE 0x58
#define CRB_CTRL_RSP_SIZE 0x64
#define CRB_DATA_BUFFER 0x80
/* The buffer runs to the end of the 4 KiB locality window (QEMU: 3968 bytes). */
#define CRB_BUFFER_MAX (0x1000 - CRB_DATA_BUFFER)

static EFI_STATUS crb_ready(struct tpm_device *tpm)
{
	const struct tpm_regs *r = tpm->regs;
	EFI_STATUS status;

	r->write32(r, CRB_LOC_CTRL, CRB_LOC_CTRL_REQUEST);
	status =
	    tpm_wait32(r, CRB_LOC_STS, CRB_LOC_STS_GRANTED, CRB_LOC_STS_GRANTED, tpm->timeout_a_us);
	if (EFI_ERROR(status)) {
		log_debug("locality 0 not granted\n");
		return status;
	}
	r->write32(r, CRB_CTRL_REQ, CRB_CTRL_REQ_CMD_READY);
	status = tpm_wait32(r, CRB_CTRL_REQ, CRB_CTRL_REQ_CMD_READY, 0, tpm->timeout_c_us);
	if (!EFI_ERROR(status))
		status = tpm_wait32(r, CRB_CTRL_STS, CRB_CTRL_STS_IDLE, 0, tpm->timeout_c_us);
	if (EFI_ERROR(status)) {
		log_debug("not ready for a command\n");
		return status;
	}
	if (r->read32(r, CRB_CTRL_STS) & CRB_CTRL_STS_ERROR) {
		log_debug("TPM in fatal error\n");
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

static void copy_in(const struct tpm_regs *r, const UINT8 *cmd, UINT32 size)
{
	for (UINT32 i = 0; i < size; i++)
		r->write8(r, CRB_DATA_BUFFER + i, cmd[i]);
}

static UINT32 get_be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

/* Reads the header, then as much of the rest as its size field claims and both buffers
 * hold; a larger claim is left for tpm2_response_check to refuse. */
static void copy_out(const struct tpm_regs *r, UINT8 *rsp, UINT32 *rsp_size, UINT32 limit)
{
	UINT32 size;

	if (limit > *rsp_size)
		limit = *rsp_size;
	if (limit < TPM_HEADER_SIZE) {
		*rsp_size = 0;
		return;
	}
	for (UINT32 i = 0; i < TPM_HEADER_SIZE; i++)
		rsp[i] = r->read8(r, CRB_DATA_BUFFER + i);
	size = get_be32(rsp + 2);
	if (size < TPM_HEADER_SIZE || size > limit)
		size = TPM_HEADER_SIZE;
	for (UINT32 i = TPM_HEADER_SIZE; i < size; i++)
		rsp[i] = r->read8(r, CRB_DATA_BUFFER + i);
	*rsp_size = size;
}

static EFI_STATUS crb_submit(struct tpm_device *tpm, const UINT8 *cmd, UINT32 cmd_size, UINT8 *rsp,
			     UINT32 *rsp_size)
{
	const struct tpm_regs *r = tpm->regs;
	EFI_STATUS status;

	if (cmd_size > CRB_BUFFER_MAX)
		return EFI_BUFFER_TOO_SMALL;
	status = crb_ready(tpm);
	if (EFI_ERROR(status))
		return status;
	copy_in(r, cmd, cmd_size);
	r->write32(r, CRB_CTRL_START, 1);
	status = tpm_wait32(r, CRB_CTRL_START, 1, 0, tpm->timeout_command_us);
	if (EFI_ERROR(status)) {
		log_debug("command not done in %u us\n", tpm->timeout_command_us);
		r->write32(r, CRB_CTRL_CANCEL, 1);
	} else if (r->read32(r, CRB_CTRL_STS) & CRB_CTRL_STS_ERROR) {
		log_debug("TPM in fatal error after a command\n");
		status = EFI_DEVICE_ERROR;
	} else {
		copy_out(r, rsp, rsp_size, CRB_BUFFER_MAX);
	}
	r->write32(r, CRB_CTRL_REQ, CRB_CTRL_REQ_GO_IDLE);
	return status;
}

void tpm_crb_init(struct tpm_device *tpm, const struct tpm_regs *regs)
{
	mem_set(tpm, 0, sizeof(*tpm));
	tpm->name = "CRB";
	tpm->submit = crb_submit;
	tpm->regs = regs;
	/* PTP 1.05, table 16: A 750 ms, B 2 s, C 200 ms; commands as long as a self-test. */
	tpm->timeout_a_us = 750000;
	tpm->timeout_b_us = 2000000;
	tpm->timeout_c_us = 200000;
	tpm->timeout_command_us = 90000000;
}
