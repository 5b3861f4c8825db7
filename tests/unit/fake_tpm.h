/* A fake TPM 2.0 behind the CRB or FIFO registers (drivers/tpm): answers commands from a
 * table of canned responses by command code, records what it was sent, and can stop
 * answering or refuse its locality. */
#ifndef EMBER_FAKE_TPM_H
#define EMBER_FAKE_TPM_H

#include <stdbool.h>
#include <ember/drivers/tpm.h>

struct fake_tpm_answer {
	UINT32 code; /* command code */
	const UINT8 *rsp;
	UINT32 size;
};

struct fake_tpm {
	struct tpm_regs regs;
	bool fifo;			       /* FIFO (TIS) registers instead of CRB */
	bool dead;			       /* takes commands, never finishes one */
	bool no_locality;		       /* never grants locality 0 */
	const struct fake_tpm_answer *answers; /* consulted before the defaults */
	UINT32 answer_count;
	UINT32 codes[32]; /* command codes received */
	UINT32 count;
	UINT8 cmd[TPM_BUFFER_MAX]; /* the last command */
	UINT32 cmd_size;
	/* registers */
	UINT8 buffer[TPM_BUFFER_MAX];
	UINT32 rsp_size, rsp_at; /* FIFO: response bytes and how many were read */
	UINT32 fifo_in;		 /* FIFO: command bytes written */
	UINT32 loc_sts, ctrl_req, ctrl_sts, start;
	UINT8 access, sts;
};

/* A fake that answers every command with success and reports SHA-1, SHA-256 and SHA-512
 * active, SHA-384 present but unallocated. */
void fake_tpm_init(struct fake_tpm *f, bool fifo);

/* Ends a test's use of tpm, which tpm_start made the machine's TPM: the machine has none
 * afterwards, so that nothing reaches tpm once the test's stack is gone (the boot's
 * measurements in later tests ask tpm_get() for the machine's TPM). */
void fake_tpm_release(struct tpm_device *tpm);

#endif
