/* Fuzzes what Ember reads from a TPM (drivers/tpm): the input, after a first byte choosing
 * CRB or FIFO, is what the TPM's buffer or FIFO holds when TPM2_GetCapability(PCRS) is
 * answered. The transports, the header check and the bank parser must stay within the
 * bytes given, and the banks found active must be among those found at all. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/drivers/tpm.h>

struct model {
	const uint8_t *data;
	size_t size, at;
	uint32_t written, cmd_size;
};

static UINT8 model_read8(const struct tpm_regs *regs, UINT32 offset)
{
	struct model *m = regs->context;

	if (offset >= 0x80 && offset - 0x80 < m->size) /* CRB buffer */
		return m->data[offset - 0x80];
	if (offset == 0x00) /* FIFO access: valid, locality active */
		return 0xA0;
	if (offset == 0x18) /* FIFO status: valid, commandReady, dataAvail, Expect */
		return (UINT8)(0xC0 | (m->at < m->size ? 0x10 : 0) |
			       (m->written < 10 || m->written < m->cmd_size ? 0x08 : 0));
	if (offset == 0x24) /* FIFO data */
		return m->at < m->size ? m->data[m->at++] : 0xFF;
	return 0;
}

static UINT32 model_read32(const struct tpm_regs *regs, UINT32 offset)
{
	if (offset == 0x0C) /* CRB locality granted; everything else idle and done */
		return 1;
	if (offset == 0x18)
		return model_read8(regs, 0x18) | 4u << 8;
	return 0;
}

static void model_write8(const struct tpm_regs *regs, UINT32 offset, UINT8 value)
{
	struct model *m = regs->context;

	if (offset == 0x24 && ++m->written == 6)
		m->cmd_size = 22; /* GetCapability's size, as its header says */
}

static void model_write32(const struct tpm_regs *regs, UINT32 offset, UINT32 value)
{
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model m = {0};
	struct tpm_regs regs = {model_read8, model_read32, model_write8, model_write32, &m};
	struct tpm_device tpm;

	if (size < 1)
		return 0;
	m.data = data + 1;
	m.size = size - 1;
	if (data[0] & 1)
		tpm_tis_init(&tpm, &regs);
	else
		tpm_crb_init(&tpm, &regs);
	tpm.timeout_a_us = tpm.timeout_b_us = tpm.timeout_c_us = tpm.timeout_command_us = 50;
	if (!EFI_ERROR(tpm2_get_pcr_banks(&tpm)) && (tpm.active_banks & ~tpm.supported_banks))
		abort();
	return 0;
}
