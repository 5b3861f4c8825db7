/* Polling a TPM register with a timeout, shared by the CRB and FIFO transports. */
#ifndef EMBER_TPM_WAIT_H
#define EMBER_TPM_WAIT_H

#include <ember/drivers/tpm.h>

/* Waits until (read32(offset) & mask) == value, at most timeout_us microseconds. */
EFI_STATUS tpm_wait32(const struct tpm_regs *regs, UINT32 offset, UINT32 mask, UINT32 value,
		      UINT32 timeout_us);
/* The same for an 8-bit register. */
EFI_STATUS tpm_wait8(const struct tpm_regs *regs, UINT32 offset, UINT8 mask, UINT8 value,
		     UINT32 timeout_us);

#endif
