/* The FIFO interface (TIS) of the TCG PC Client Platform TPM Profile (PTP 1.05, 6.4 and 6.5.2):
 * request locality 0, commandReady, the command through the data FIFO in bursts of
 * burstCount bytes (Expect says the TPM wants more), tpmGo, wait for dataAvail, the response
 * out of the FIFO, commandReady again and the locality given back. */
#define LOG_PREFIX "tpm-fifo: "
#include <ember/core/log.h>
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include "tpm_wait.h"

#define TIS_ACCESS 0x00
#define TIS_ACCESS_REQUEST_USE 0x02
#define TIS_ACCESS_ACTIVE 0x20
#define TIS_ACCESS_VALID 0x80
#define TIS_STS 0x18
#define TIS_STS_EXPECT 0x08
#define TIS_STS_DATA_AVAIL 0x10
#define TIS_STS_GO 0x20
#define TIS_STS_COMMAND_READY 0x40
#define TIS_STS_VALID 0x80
#define TIS_DATA_FIFO 0x24

static EFI_STATUS fifo_ready(struct tpm_device *tpm)
{
	const struct tpm_regs *r = tpm->regs;
	UINT8 granted = TIS_ACCESS_VALID | TIS_ACCESS_ACTIVE;
	EFI_STATUS status;

	r->write8(r, TIS_ACCESS, TIS_ACCESS_REQUEST_USE);
	status = tpm_wait8(r, TIS_ACCESS, granted, granted, tpm->timeout_a_us);
	if (EFI_ERROR(status)) {
		log_debug("locality 0 not granted\n");
		return status;
	}
	r->write8(r, TIS_STS, TIS_STS_COMMAND_READY);
	status =
	    tpm_wait8(r, TIS_STS, TIS_STS_COMMAND_READY, TIS_STS_COMMAND_READY, tpm->timeout_b_us);
	if (EFI_ERROR(status))
		log_debug("not ready for a command\n");
	return status;
}

/* How many bytes the FIFO takes or gives without waiting (waits up to timeout A for one). */
static UINT32 burst_count(struct tpm_device *tpm)
{
	const struct tpm_regs *r = tpm->regs;

	for (UINT64 waited = 0; waited < tpm->timeout_a_us; waited += 10) {
		UINT32 burst = (r->read32(r, TIS_STS) >> 8) & 0xFFFF;

		if (burst)
			return burst;
		core_stall_us(10);
	}
	return 0;
}

/* Waits for stsValid, then tells whether the status bits in mask equal value. */
static EFI_STATUS expect_status(struct tpm_device *tpm, UINT8 mask, UINT8 value)
{
	const struct tpm_regs *r = tpm->regs;
	EFI_STATUS status = tpm_wait8(r, TIS_STS, TIS_STS_VALID, TIS_STS_VALID, tpm->timeout_c_us);

	if (EFI_ERROR(status))
		return status;
	return (r->read8(r, TIS_STS) & mask) == value ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

static EFI_STATUS fifo_send(struct tpm_device *tpm, const UINT8 *cmd, UINT32 size)
{
	const struct tpm_regs *r = tpm->regs;
	UINT32 at = 0;

	/* All bytes but the last, after which Expect must still be set... */
	while (at < size - 1) {
		UINT32 burst = burst_count(tpm);

		if (!burst)
			return EFI_TIMEOUT;
		for (; burst && at < size - 1; burst--)
			r->write8(r, TIS_DATA_FIFO, cmd[at++]);
	}
	if (EFI_ERROR(expect_status(tpm, TIS_STS_EXPECT, TIS_STS_EXPECT))) {
		log_debug("TPM took the command short of its last byte\n");
		return EFI_DEVICE_ERROR;
	}
	/* ...and clear after it. */
	if (!burst_count(tpm))
		return EFI_TIMEOUT;
	r->write8(r, TIS_DATA_FIFO, cmd[at]);
	if (EFI_ERROR(expect_status(tpm, TIS_STS_EXPECT, 0))) {
		log_debug("TPM wants more than the command's %u bytes\n", size);
		return EFI_DEVICE_ERROR;
	}
	r->write8(r, TIS_STS, TIS_STS_GO);
	return EFI_SUCCESS;
}

/* Reads size bytes, each burst only while the TPM says it has data (past its end a FIFO
 * reads as 0xFF, which must not pass for a response). */
static EFI_STATUS fifo_read(struct tpm_device *tpm, UINT8 *dst, UINT32 size)
{
	const struct tpm_regs *r = tpm->regs;

	while (size) {
		UINT32 burst = burst_count(tpm);

		if (!burst)
			return EFI_TIMEOUT;
		if (!(r->read8(r, TIS_STS) & TIS_STS_DATA_AVAIL))
			return EFI_DEVICE_ERROR;
		for (; burst && size; burst--, size--)
			*dst++ = r->read8(r, TIS_DATA_FIFO);
	}
	return EFI_SUCCESS;
}

static UINT32 get_be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

/* The header, then the rest its size field claims if the buffer holds it; the TPM must have
 * nothing left to give after that. */
static EFI_STATUS fifo_receive(struct tpm_device *tpm, UINT8 *rsp, UINT32 *rsp_size)
{
	UINT8 avail = TIS_STS_VALID | TIS_STS_DATA_AVAIL;
	EFI_STATUS status = tpm_wait8(tpm->regs, TIS_STS, avail, avail, tpm->timeout_command_us);
	UINT32 size;

	if (EFI_ERROR(status)) {
		log_debug("no response in %u us\n", tpm->timeout_command_us);
		return status;
	}
	if (*rsp_size < TPM_HEADER_SIZE)
		return EFI_BUFFER_TOO_SMALL;
	status = fifo_read(tpm, rsp, TPM_HEADER_SIZE);
	size = get_be32(rsp + 2);
	if (EFI_ERROR(status) || size < TPM_HEADER_SIZE || size > *rsp_size) {
		log_debug("response header unreadable or of size %u\n", size);
		return EFI_DEVICE_ERROR;
	}
	status = fifo_read(tpm, rsp + TPM_HEADER_SIZE, size - TPM_HEADER_SIZE);
	if (!EFI_ERROR(status))
		status = expect_status(tpm, TIS_STS_DATA_AVAIL, 0);
	if (EFI_ERROR(status)) {
		log_debug("response not as long as its header says\n");
		return EFI_DEVICE_ERROR;
	}
	*rsp_size = size;
	return EFI_SUCCESS;
}

static EFI_STATUS fifo_submit(struct tpm_device *tpm, const UINT8 *cmd, UINT32 cmd_size, UINT8 *rsp,
			      UINT32 *rsp_size)
{
	const struct tpm_regs *r = tpm->regs;
	EFI_STATUS status;

	if (cmd_size < TPM_HEADER_SIZE)
		return EFI_INVALID_PARAMETER;
	status = fifo_ready(tpm);
	if (EFI_ERROR(status))
		return status;
	status = fifo_send(tpm, cmd, cmd_size);
	if (!EFI_ERROR(status))
		status = fifo_receive(tpm, rsp, rsp_size);
	/* commandReady ends the command (or aborts it) and empties the FIFO. */
	r->write8(r, TIS_STS, TIS_STS_COMMAND_READY);
	r->write8(r, TIS_ACCESS, TIS_ACCESS_ACTIVE);
	return status;
}

void tpm_tis_init(struct tpm_device *tpm, const struct tpm_regs *regs)
{
	mem_set(tpm, 0, sizeof(*tpm));
	tpm->name = "FIFO";
	tpm->submit = fifo_submit;
	tpm->regs = regs;
	/* PTP 1.05, table 16: A 750 ms, B 2 s, C 200 ms; commands as long as a self-test. */
	tpm->timeout_a_us = 750000;
	tpm->timeout_b_us = 2000000;
	tpm->timeout_c_us = 200000;
	tpm->timeout_command_us = 90000000;
}
