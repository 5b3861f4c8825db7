/* The fake TPM of fake_tpm.h: a register model of the CRB and FIFO interfaces over a table of
 * responses. */
#include <string.h>

#include "fake_tpm.h"

static const UINT8 rsp_ok[] = {0x80, 0x01, 0, 0, 0, 10, 0, 0, 0, 0};
/* TPM2_PCR_Extend's answer: parameterSize 0, a password session with continueSession. */
static const UINT8 rsp_extend[] = {0x80, 0x02, 0, 0, 0, 19, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0};
/* GetCapability(PCRS): SHA-1, SHA-256, SHA-384 (no PCR selected), SHA-512. */
static const UINT8 rsp_pcrs[] = {0x80, 0x01, 0,	   0, 0,    43,	  0,	0,    0,    0,	  0,
				 0,    0,    0,	   5, 0,    0,	  0,	4,    0,    0x04, 3,
				 0xff, 0xff, 0xff, 0, 0x0b, 3,	  0xff, 0xff, 0xff, 0,	  0x0c,
				 3,    0,    0,	   0, 0,    0x0d, 3,	0xff, 0xff, 0xff};

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

/* Runs the command in the buffer: the answer replaces it. */
static void fake_execute(struct fake_tpm *f, UINT32 size)
{
	UINT32 code = size >= 10 ? be32(f->buffer + 6) : 0;
	const UINT8 *rsp = rsp_ok;
	UINT32 rsp_size = sizeof(rsp_ok);

	memcpy(f->cmd, f->buffer, size);
	f->cmd_size = size;
	if (f->count < 32)
		f->codes[f->count++] = code;
	if (code == TPM_CC_GetCapability)
		rsp = rsp_pcrs, rsp_size = sizeof(rsp_pcrs);
	if (code == TPM_CC_PCR_Extend)
		rsp = rsp_extend, rsp_size = sizeof(rsp_extend);
	for (UINT32 i = 0; i < f->answer_count; i++)
		if (f->answers[i].code == code)
			rsp = f->answers[i].rsp, rsp_size = f->answers[i].size;
	memset(f->buffer, 0, sizeof(f->buffer));
	memcpy(f->buffer, rsp, rsp_size);
	f->rsp_size = rsp_size;
	f->rsp_at = 0;
}

/* CRB: the buffer at 0x80, the command's size read from its header. */
static UINT8 crb_read8(const struct tpm_regs *regs, UINT32 offset)
{
	struct fake_tpm *f = regs->context;

	return offset >= 0x80 && offset - 0x80 < sizeof(f->buffer) ? f->buffer[offset - 0x80]
								   : 0xff;
}

static UINT32 crb_read32(const struct tpm_regs *regs, UINT32 offset)
{
	struct fake_tpm *f = regs->context;

	switch (offset) {
	case 0x0C:
		return f->loc_sts;
	case 0x30:
		return TPM_INTF_TYPE_CRB;
	case 0x40:
		return f->ctrl_req;
	case 0x44:
		return f->ctrl_sts;
	case 0x4C:
		return f->start;
	}
	return 0;
}

static void crb_write8(const struct tpm_regs *regs, UINT32 offset, UINT8 value)
{
	struct fake_tpm *f = regs->context;

	if (offset >= 0x80 && offset - 0x80 < sizeof(f->buffer))
		f->buffer[offset - 0x80] = value;
}

static void crb_write32(const struct tpm_regs *regs, UINT32 offset, UINT32 value)
{
	struct fake_tpm *f = regs->context;

	if (offset == 0x08 && value == 1 && !f->no_locality)
		f->loc_sts = 1;
	if (offset == 0x40 && value == 1)
		f->ctrl_sts &= ~2u;
	if (offset == 0x40 && value == 2)
		f->ctrl_sts |= 2u;
	if (offset == 0x4C && value == 1) {
		f->start = 1;
		if (!f->dead) {
			fake_execute(
			    f, be32(f->buffer + 2) < sizeof(f->buffer) ? be32(f->buffer + 2) : 0);
			f->start = 0;
		}
	}
}

/* FIFO: TPM_ACCESS 0x00, TPM_STS 0x18 (burstCount 0x19-0x1A), data FIFO 0x24. */
static UINT8 fifo_read8(const struct tpm_regs *regs, UINT32 offset)
{
	struct fake_tpm *f = regs->context;

	switch (offset) {
	case 0x00:
		return f->access;
	case 0x18:
		return f->sts;
	case 0x19:
		return 8; /* burstCount */
	case 0x1A:
		return 0;
	case 0x24:
		if (f->rsp_at < f->rsp_size && ++f->rsp_at == f->rsp_size)
			f->sts &= (UINT8)~0x10; /* dataAvail */
		return f->rsp_at <= f->rsp_size ? f->buffer[f->rsp_at - 1] : 0xff;
	}
	return 0xff;
}

static UINT32 fifo_read32(const struct tpm_regs *regs, UINT32 offset)
{
	if (offset == 0x18)
		return fifo_read8(regs, 0x18) | 8u << 8;
	return offset == 0x30 ? TPM_INTF_TYPE_FIFO : 0;
}

static void fifo_write8(const struct tpm_regs *regs, UINT32 offset, UINT8 value)
{
	struct fake_tpm *f = regs->context;

	if (offset == 0x00 && (value & 0x02) && !f->no_locality)
		f->access = 0x80 | 0x20;
	if (offset == 0x00 && (value & 0x20))
		f->access = 0x80;
	if (offset == 0x18 && (value & 0x40)) {
		f->sts = 0x80 | 0x40; /* stsValid, commandReady */
		f->fifo_in = 0;
		f->rsp_size = f->rsp_at = 0;
	}
	if (offset == 0x24 && f->fifo_in < sizeof(f->buffer)) {
		f->buffer[f->fifo_in++] = value;
		/* Expect stays set until the header's size has arrived. */
		f->sts = (UINT8)(0x80 |
				 (f->fifo_in < 10 || f->fifo_in < be32(f->buffer + 2) ? 0x08 : 0));
	}
	if (offset == 0x18 && (value & 0x20) && !f->dead) {
		fake_execute(f, f->fifo_in);
		f->sts = 0x80 | 0x10; /* stsValid, dataAvail */
	}
}

static void fifo_write32(const struct tpm_regs *regs, UINT32 offset, UINT32 value)
{
	fifo_write8(regs, offset, (UINT8)value);
}

void fake_tpm_init(struct fake_tpm *f, bool fifo)
{
	memset(f, 0, sizeof(*f));
	f->fifo = fifo;
	f->regs.context = f;
	f->regs.read8 = fifo ? fifo_read8 : crb_read8;
	f->regs.read32 = fifo ? fifo_read32 : crb_read32;
	f->regs.write8 = fifo ? fifo_write8 : crb_write8;
	f->regs.write32 = fifo ? fifo_write32 : crb_write32;
	f->ctrl_sts = 2; /* idle */
	f->access = 0x80;
}

static EFI_STATUS absent_submit(struct tpm_device *tpm, const UINT8 *cmd, UINT32 cmd_size,
				UINT8 *rsp, UINT32 *rsp_size)
{
	(void)tpm, (void)cmd, (void)cmd_size, (void)rsp, (void)rsp_size;
	return EFI_NO_RESPONSE;
}

void fake_tpm_release(struct tpm_device *tpm)
{
	/* tpm_start forgets the machine's TPM first; one that never answers stays forgotten. */
	static struct tpm_device absent = {.name = "absent", .submit = absent_submit};

	tpm->failed = true;
	absent.failed = false;
	tpm_start(&absent);
}
