/* TPM 2.0 (drivers/tpm): a transport-independent command layer over the two memory-mapped
 * interfaces of the TCG PC Client Platform TPM Profile (PTP) specification, CRB and FIFO
 * (TIS). A platform finds the TPM, wraps its registers in a struct tpm_regs, starts the
 * transport that the interface identifier names and hands it to tpm_start, which makes it
 * the machine's TPM. Responses are outside data: every one is checked against the length
 * the transport received before a field of it is read (tpm2_response.c). */
#ifndef EMBER_TPM_H
#define EMBER_TPM_H

#include <stdbool.h>
#include <efi/types.h>
#include <efi/status.h>

/* TPM 2.0 Part 2: structure tags, command codes, response codes, algorithms. */
#define TPM_ST_NO_SESSIONS 0x8001
#define TPM_ST_SESSIONS 0x8002
#define TPM_CC_PCR_Allocate 0x12B
#define TPM_CC_SelfTest 0x143
#define TPM_CC_Startup 0x144
#define TPM_CC_GetCapability 0x17A
#define TPM_CC_PCR_Read 0x17E
#define TPM_CC_PCR_Extend 0x182
#define TPM_SU_CLEAR 0x0000
#define TPM_RC_SUCCESS 0x000
#define TPM_RC_INITIALIZE 0x100 /* TPM2_Startup already done (by an earlier boot stage) */
#define TPM_RS_PW 0x40000009
#define TPM_RH_PLATFORM 0x4000000C
#define TPM_CAP_PCRS 5
#define TPM_CAP_TPM_PROPERTIES 6
#define TPM_PT_MANUFACTURER 0x105
#define TPM_ALG_SHA1 0x0004
#define TPM_ALG_SHA256 0x000B
#define TPM_ALG_SHA384 0x000C
#define TPM_ALG_SHA512 0x000D
#define TPM_ALG_SM3_256 0x0012

/* The TCG EFI Protocol's bitmap of hash algorithms (EFI_TCG2_BOOT_HASH_ALG_*). */
#define TPM_BANK_SHA1 0x01
#define TPM_BANK_SHA256 0x02
#define TPM_BANK_SHA384 0x04
#define TPM_BANK_SHA512 0x08
#define TPM_BANK_SM3_256 0x10

#define TPM_HEADER_SIZE 10
/* The largest command or response Ember exchanges (PTP: CRB buffers are at most 4 KiB). */
#define TPM_BUFFER_MAX 4096
#define TPM_PCR_COUNT 24
#define TPM_DIGEST_MAX 64
#define TPM_BANK_COUNT 5

/* Register access to one interface's locality-0 window (MMIO on QEMU, a fake in tests). */
struct tpm_regs {
	UINT8 (*read8)(const struct tpm_regs *regs, UINT32 offset);
	UINT32 (*read32)(const struct tpm_regs *regs, UINT32 offset);
	void (*write8)(const struct tpm_regs *regs, UINT32 offset, UINT8 value);
	void (*write32)(const struct tpm_regs *regs, UINT32 offset, UINT32 value);
	void *context;
};

/* One TPM behind a transport. */
struct tpm_device {
	const char *name; /* "CRB" or "FIFO" */
	/* Sends one command, waits for its response; *rsp_size is the buffer on entry, the
	 * bytes received on return (a response checked only for its header's size field). */
	EFI_STATUS (*submit)(struct tpm_device *tpm, const UINT8 *cmd, UINT32 cmd_size, UINT8 *rsp,
			     UINT32 *rsp_size);
	const struct tpm_regs *regs;
	/* PTP timeouts in microseconds: A (locality, status), B (command readiness), C (idle),
	 * and the longest command. Tests shorten them. */
	UINT32 timeout_a_us, timeout_b_us, timeout_c_us, timeout_command_us;
	UINT32 supported_banks; /* TPM_BANK_* the TPM implements */
	UINT32 active_banks;	/* TPM_BANK_* that are allocated and extended */
	bool failed;		/* stopped answering or answered nonsense: not used again */
};

/* PTP interface identifier (offset 0x30 on both interfaces): which one is active. */
#define TPM_INTF_ID 0x30
#define TPM_INTF_TYPE_MASK 0xF
#define TPM_INTF_TYPE_FIFO 0x0
#define TPM_INTF_TYPE_CRB 0x1
#define TPM_INTF_TYPE_TIS 0xF /* TIS 1.3 (TPM 1.2 style FIFO) */

/* Sets tpm up as a CRB (command response buffer) transport over regs. */
void tpm_crb_init(struct tpm_device *tpm, const struct tpm_regs *regs);
/* Sets tpm up as a FIFO (TIS) transport over regs. */
void tpm_tis_init(struct tpm_device *tpm, const struct tpm_regs *regs);

/* Checks a response header: at least TPM_HEADER_SIZE bytes, a known tag, a size field equal
 * to size; *code receives the response code. EFI_DEVICE_ERROR for anything else. */
EFI_STATUS tpm2_response_check(const UINT8 *rsp, UINT32 size, UINT32 *code);
/* Reads the banks from a TPM2_GetCapability(TPM_CAP_PCRS) response already checked by
 * tpm2_response_check: *supported gets every TPM_BANK_* listed, *active those with at least
 * one PCR selected. Unknown algorithms are skipped; a truncated list is refused. */
EFI_STATUS tpm2_parse_pcr_banks(const UINT8 *rsp, UINT32 size, UINT32 *supported, UINT32 *active);

/* Reads property from a TPM2_GetCapability(TPM_CAP_TPM_PROPERTIES) response already checked
 * by tpm2_response_check. EFI_NOT_FOUND when the list lacks it, EFI_DEVICE_ERROR when the
 * response is short or of another capability. */
EFI_STATUS tpm2_parse_tpm_property(const UINT8 *rsp, UINT32 size, UINT32 property, UINT32 *value);
/* Reads allocationSuccess from a TPM2_PCR_Allocate response (checked by tpm2_response_check,
 * code TPM_RC_SUCCESS). EFI_DEVICE_ERROR when too short. */
EFI_STATUS tpm2_parse_pcr_allocate(const UINT8 *rsp, UINT32 size, bool *success);

/* Sends cmd, checks the response's header and returns its code in *code. A transport
 * failure marks tpm failed. */
EFI_STATUS tpm2_transact(struct tpm_device *tpm, const UINT8 *cmd, UINT32 cmd_size, UINT8 *rsp,
			 UINT32 *rsp_size, UINT32 *code);
/* TPM2_Startup(CLEAR); already started counts as success. */
EFI_STATUS tpm2_startup(struct tpm_device *tpm);
/* TPM2_SelfTest(fullTest = YES). */
EFI_STATUS tpm2_self_test(struct tpm_device *tpm);
/* TPM2_GetCapability(TPM_CAP_PCRS): fills tpm->supported_banks and tpm->active_banks. */
EFI_STATUS tpm2_get_pcr_banks(struct tpm_device *tpm);
/* TPM2_PCR_Extend of pcr in the banks of tpm->active_banks that are also in banks (a bank
 * whose digest cannot be computed is left alone, not extended with a made-up digest);
 * digests[i] is the digest for TPM_BANK_* (1 << i) (SHA-1, SHA-256, SHA-384, SHA-512, SM3). */
EFI_STATUS tpm2_pcr_extend(struct tpm_device *tpm, UINT32 pcr, UINT32 banks,
			   const UINT8 digests[][TPM_DIGEST_MAX]);
/* TPM2_GetCapability(TPM_PT_MANUFACTURER): the TPM vendor's four-character ID. */
EFI_STATUS tpm2_get_manufacturer(struct tpm_device *tpm, UINT32 *id);
/* TPM2_PCR_Allocate with the platform's (empty) authorization: all 24 PCRs of the banks in
 * banks, none of the other banks tpm supports. Takes effect at the TPM's next reset. */
EFI_STATUS tpm2_pcr_allocate(struct tpm_device *tpm, UINT32 banks);
/* TPM_ALG_* of a TPM_BANK_* bit, 0 for none; and the digest size of that algorithm. */
UINT16 tpm2_bank_alg(UINT32 bank);
UINT32 tpm2_alg_digest_size(UINT16 alg);

/* The vendor GUID of the variables that carry a SetActivePcrBanks request to the next boot
 * and its result back (drivers/tpm/tcg2_pcr_banks.c). */
#define EMBER_TCG2_PCR_BANKS_GUID                                                                  \
	EFI_GUID_INIT(0xd9066a90, 0xd8a0, 0x4e78, 0x82, 0x19, 0xd4, 0x90, 0xf0, 0x29, 0xed, 0x47)

/* Starts tpm (Startup, SelfTest, bank discovery) and makes it the machine's TPM. */
EFI_STATUS tpm_start(struct tpm_device *tpm);
/* The machine's TPM, NULL if none or if it failed. */
struct tpm_device *tpm_get(void);

#endif
