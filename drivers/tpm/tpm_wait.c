/* Register polling for the TPM transports: a TPM that stops answering costs one timeout,
 * never a hang. */
#include "tpm_wait.h"
#include <ember/core/core.h>

#define POLL_US 20

EFI_STATUS tpm_wait32(const struct tpm_regs *regs, UINT32 offset, UINT32 mask, UINT32 value,
		      UINT32 timeout_us)
{
	for (UINT64 waited = 0;; waited += POLL_US) {
		if ((regs->read32(regs, offset) & mask) == value)
			return EFI_SUCCESS;
		if (waited >= timeout_us)
			return EFI_TIMEOUT;
		core_stall_us(POLL_US);
	}
}

EFI_STATUS tpm_wait8(const struct tpm_regs *regs, UINT32 offset, UINT8 mask, UINT8 value,
		     UINT32 timeout_us)
{
	for (UINT64 waited = 0;; waited += POLL_US) {
		if ((regs->read8(regs, offset) & mask) == value)
			return EFI_SUCCESS;
		if (waited >= timeout_us)
			return EFI_TIMEOUT;
		core_stall_us(POLL_US);
	}
}
