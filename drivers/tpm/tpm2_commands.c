/* The TPM 2.0 commands the firmware sends (TPM 2.0 Part 3), built in big-endian byte order,
 * and the machine's one TPM. */
#define LOG_PREFIX "tpm: "
#include <ember/core/log.h>
#include <ember/drivers/tpm.h>
#include <ember/lib/str.h>

static struct tpm_device *machine_tpm;

/* A command being built. */
struct tpm_cmd {
	UINT8 buf[TPM_BUFFER_MAX];
	UINT32 size;
};

static void put16(struct tpm_cmd *c, UINT16 v)
{
	c->buf[c->size++] = (UINT8)(v >> 8);
	c->buf[c->size++] = (UINT8)v;
}

static void put32(struct tpm_cmd *c, UINT32 v)
{
	put16(c, (UINT16)(v >> 16));
	put16(c, (UINT16)v);
}

static void cmd_begin(struct tpm_cmd *c, UINT16 tag, UINT32 code)
{
	c->size = 0;
	put16(c, tag);
	put32(c, 0); /* size, set by cmd_end */
	put32(c, code);
}

static void cmd_end(struct tpm_cmd *c)
{
	c->buf[2] = (UINT8)(c->size >> 24);
	c->buf[3] = (UINT8)(c->size >> 16);
	c->buf[4] = (UINT8)(c->size >> 8);
	c->buf[5] = (UINT8)c->size;
}

EFI_STATUS tpm2_transact(struct tpm_device *tpm, const UINT8 *cmd, UINT32 cmd_size, UINT8 *rsp,
			 UINT32 *rsp_size, UINT32 *code)
{
	EFI_STATUS status;

	if (tpm->failed)
		return EFI_DEVICE_ERROR;
	status = tpm->submit(tpm, cmd, cmd_size, rsp, rsp_size);
	if (!EFI_ERROR(status))
		status = tpm2_response_check(rsp, *rsp_size, code);
	if (EFI_ERROR(status)) {
		log_debug("%s: command 0x%x failed: %r\n", tpm->name,
			  cmd_size >= TPM_HEADER_SIZE ? (UINT32)cmd[8] << 8 | cmd[9] : 0, status);
		tpm->failed = true;
	}
	return status;
}

/* Sends c; any response code but TPM_RC_SUCCESS (and also_ok) is a device error. */
static EFI_STATUS run(struct tpm_device *tpm, struct tpm_cmd *c, UINT8 *rsp, UINT32 *rsp_size,
		      UINT32 also_ok)
{
	UINT32 code;
	EFI_STATUS status;

	cmd_end(c);
	status = tpm2_transact(tpm, c->buf, c->size, rsp, rsp_size, &code);
	if (EFI_ERROR(status))
		return status;
	if (code != TPM_RC_SUCCESS && code != also_ok) {
		log_debug("%s: command answered 0x%x\n", tpm->name, code);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS run_simple(struct tpm_device *tpm, struct tpm_cmd *c, UINT32 also_ok)
{
	UINT8 rsp[TPM_BUFFER_MAX];
	UINT32 rsp_size = sizeof(rsp);

	return run(tpm, c, rsp, &rsp_size, also_ok);
}

EFI_STATUS tpm2_startup(struct tpm_device *tpm)
{
	struct tpm_cmd c;

	cmd_begin(&c, TPM_ST_NO_SESSIONS, TPM_CC_Startup);
	put16(&c, TPM_SU_CLEAR);
	return run_simple(tpm, &c, TPM_RC_INITIALIZE);
}

EFI_STATUS tpm2_self_test(struct tpm_device *tpm)
{
	struct tpm_cmd c;

	cmd_begin(&c, TPM_ST_NO_SESSIONS, TPM_CC_SelfTest);
	/* fullTest = NO: what has not been tested yet, which after TPM2_Startup is all a boot
	 * uses, without the wait of a full test on a TPM that keeps results (Part 1, 12.3). */
	c.buf[c.size++] = 0;
	return run_simple(tpm, &c, TPM_RC_SUCCESS);
}

EFI_STATUS tpm2_get_pcr_banks(struct tpm_device *tpm)
{
	struct tpm_cmd c;
	UINT8 rsp[TPM_BUFFER_MAX];
	UINT32 rsp_size = sizeof(rsp);
	EFI_STATUS status;

	cmd_begin(&c, TPM_ST_NO_SESSIONS, TPM_CC_GetCapability);
	put32(&c, TPM_CAP_PCRS);
	put32(&c, 0); /* property */
	put32(&c, 1); /* propertyCount */
	status = run(tpm, &c, rsp, &rsp_size, TPM_RC_SUCCESS);
	if (EFI_ERROR(status))
		return status;
	status = tpm2_parse_pcr_banks(rsp, rsp_size, &tpm->supported_banks, &tpm->active_banks);
	if (EFI_ERROR(status))
		tpm->failed = true;
	return status;
}

/* The password session with an empty password that authorizes a PCR (Part 1, 19.6.4). */
static void put_empty_password_session(struct tpm_cmd *c)
{
	put32(c, 9);	       /* authorizationSize */
	put32(c, TPM_RS_PW);   /* sessionHandle */
	put16(c, 0);	       /* nonce */
	c->buf[c->size++] = 0; /* sessionAttributes */
	put16(c, 0);	       /* hmac */
}

EFI_STATUS tpm2_pcr_extend(struct tpm_device *tpm, UINT32 pcr, UINT32 banks,
			   const UINT8 digests[][TPM_DIGEST_MAX])
{
	struct tpm_cmd c;
	UINT32 count = 0;

	banks &= tpm->active_banks;
	if (pcr >= TPM_PCR_COUNT || !banks)
		return EFI_INVALID_PARAMETER;
	cmd_begin(&c, TPM_ST_SESSIONS, TPM_CC_PCR_Extend);
	put32(&c, pcr);
	put_empty_password_session(&c);
	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++)
		count += (banks >> i) & 1;
	put32(&c, count);
	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++) {
		UINT16 alg = tpm2_bank_alg(1u << i);

		if (!(banks & (1u << i)))
			continue;
		put16(&c, alg);
		mem_copy(c.buf + c.size, digests[i], tpm2_alg_digest_size(alg));
		c.size += tpm2_alg_digest_size(alg);
	}
	return run_simple(tpm, &c, TPM_RC_SUCCESS);
}

EFI_STATUS tpm2_get_manufacturer(struct tpm_device *tpm, UINT32 *id)
{
	struct tpm_cmd c;
	UINT8 rsp[TPM_BUFFER_MAX];
	UINT32 rsp_size = sizeof(rsp);
	EFI_STATUS status;

	cmd_begin(&c, TPM_ST_NO_SESSIONS, TPM_CC_GetCapability);
	put32(&c, TPM_CAP_TPM_PROPERTIES);
	put32(&c, TPM_PT_MANUFACTURER);
	put32(&c, 1); /* propertyCount */
	status = run(tpm, &c, rsp, &rsp_size, TPM_RC_SUCCESS);
	if (EFI_ERROR(status))
		return status;
	return tpm2_parse_tpm_property(rsp, rsp_size, TPM_PT_MANUFACTURER, id);
}

EFI_STATUS tpm2_pcr_allocate(struct tpm_device *tpm, UINT32 banks)
{
	struct tpm_cmd c;
	UINT8 rsp[TPM_BUFFER_MAX];
	UINT32 rsp_size = sizeof(rsp), count = 0;
	bool success = false;
	EFI_STATUS status;

	cmd_begin(&c, TPM_ST_SESSIONS, TPM_CC_PCR_Allocate);
	put32(&c, TPM_RH_PLATFORM);
	put_empty_password_session(&c);
	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++)
		count += (tpm->supported_banks >> i) & 1;
	put32(&c, count);
	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++) {
		UINT8 select = banks & (1u << i) ? 0xFF : 0;

		if (!(tpm->supported_banks & (1u << i)))
			continue;
		put16(&c, tpm2_bank_alg(1u << i));
		c.buf[c.size++] = 3; /* sizeofSelect: PCRs 0-23 */
		c.buf[c.size++] = select;
		c.buf[c.size++] = select;
		c.buf[c.size++] = select;
	}
	status = run(tpm, &c, rsp, &rsp_size, TPM_RC_SUCCESS);
	if (!EFI_ERROR(status))
		status = tpm2_parse_pcr_allocate(rsp, rsp_size, &success);
	if (!EFI_ERROR(status) && !success) {
		log_debug("%s: PCR_Allocate of 0x%x refused\n", tpm->name, banks);
		status = EFI_DEVICE_ERROR;
	}
	return status;
}

EFI_STATUS tpm_start(struct tpm_device *tpm)
{
	EFI_STATUS status;

	machine_tpm = NULL;
	status = tpm2_startup(tpm);
	if (EFI_ERROR(status)) {
		tpm->failed = true;
		log_warn("%s TPM: TPM2_Startup failed: %r\n", tpm->name, status);
		return status;
	}
	status = tpm2_self_test(tpm);
	if (EFI_ERROR(status)) {
		tpm->failed = true;
		log_warn("%s TPM: self-test failed: %r\n", tpm->name, status);
		return status;
	}
	status = tpm2_get_pcr_banks(tpm);
	if (EFI_ERROR(status)) {
		log_warn("%s TPM: no PCR banks: %r\n", tpm->name, status);
		return status;
	}
	if (!tpm->active_banks) {
		log_warn("%s TPM: no active PCR bank Ember can extend\n", tpm->name);
		return EFI_UNSUPPORTED;
	}
	log_debug("%s TPM: banks supported 0x%x, active 0x%x\n", tpm->name, tpm->supported_banks,
		  tpm->active_banks);
	machine_tpm = tpm;
	return EFI_SUCCESS;
}

struct tpm_device *tpm_get(void)
{
	return machine_tpm && !machine_tpm->failed ? machine_tpm : NULL;
}
