/* The TPM 2.0 commands tcg2-test sends through EFI_TCG2_PROTOCOL.SubmitCommand (TPM 2.0
 * Part 3), big-endian; responses are checked by pure/tpm_log.c. */
#include "tcg2_test.h"

#define TPM_CC_PCR_Reset 0x13D
#define TPM_CC_GetCapability 0x17A
#define TPM_CC_Hash 0x17D
#define TPM_CC_PCR_Read 0x17E
#define TPM_RH_NULL 0x40000007u
#define TPM_RS_PW 0x40000009u

struct cmd {
	UINT8 buf[1200];
	UINT32 size;
};

static void put16(struct cmd *c, UINT16 v)
{
	c->buf[c->size++] = (UINT8)(v >> 8);
	c->buf[c->size++] = (UINT8)v;
}

static void put32(struct cmd *c, UINT32 v)
{
	put16(c, (UINT16)(v >> 16));
	put16(c, (UINT16)v);
}

static void begin(struct cmd *c, UINT16 tag, UINT32 code)
{
	c->size = 0;
	put16(c, tag);
	put32(c, 0);
	put32(c, code);
}

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

/* Sends c; true when the TPM answered TPM_RC_SUCCESS with a response of *size bytes. */
static bool submit(struct cmd *c, UINT8 *rsp, UINT32 *size)
{
	EFI_STATUS status;

	c->buf[2] = (UINT8)(c->size >> 24);
	c->buf[3] = (UINT8)(c->size >> 16);
	c->buf[4] = (UINT8)(c->size >> 8);
	c->buf[5] = (UINT8)c->size;
	mem_set(rsp, 0, *size);
	status = tcg2->SubmitCommand(tcg2, c->size, c->buf, *size, rsp);
	if (EFI_ERROR(status)) {
		app_print("tcg2-test: SubmitCommand(0x%x): %r\n", be32(c->buf + 6), status);
		return false;
	}
	if (be32(rsp + 2) < 10 || be32(rsp + 2) > *size || be32(rsp + 6) != 0) {
		app_print("tcg2-test: command 0x%x answered size %u code 0x%x\n", be32(c->buf + 6),
			  be32(rsp + 2), be32(rsp + 6));
		return false;
	}
	*size = be32(rsp + 2);
	return true;
}

bool tpm_hash(void *ctx, UINT16 alg, const void *data, size_t size, UINT8 *out)
{
	struct cmd c;
	UINT8 rsp[256];
	UINT32 rsp_size = sizeof(rsp);

	(void)ctx;
	if (size > 1024)
		return false;
	begin(&c, 0x8001, TPM_CC_Hash);
	put16(&c, (UINT16)size);
	mem_copy(c.buf + c.size, data, size);
	c.size += (UINT32)size;
	put16(&c, alg);
	put32(&c, TPM_RH_NULL);
	return submit(&c, rsp, &rsp_size) &&
	       tlog_parse_hash(rsp, rsp_size, tlog_alg_size(alg), out);
}

/* A TPM answers at most 8 PCRs a call (PC Client PTP): one byte of the selection at a time. */
bool tpm_read_pcrs(UINT16 alg, UINT8 values[TLOG_PCRS][TLOG_DIGEST_MAX])
{
	UINT32 have = 0;

	for (int byte = 0; byte < 3; byte++) {
		struct cmd c;
		UINT8 rsp[1024];
		UINT32 rsp_size = sizeof(rsp), read = 0;

		begin(&c, 0x8001, TPM_CC_PCR_Read);
		put32(&c, 1);
		put16(&c, alg);
		c.buf[c.size++] = 3;
		for (int i = 0; i < 3; i++)
			c.buf[c.size++] = i == byte ? 0xFF : 0;
		if (!submit(&c, rsp, &rsp_size) ||
		    !tlog_parse_pcr_read(rsp, rsp_size, alg, values, &read))
			return false;
		have |= read;
	}
	return have == 0xFFFFFF;
}

bool tpm_reset_pcr(UINT32 pcr)
{
	struct cmd c;
	UINT8 rsp[64];
	UINT32 rsp_size = sizeof(rsp);

	begin(&c, 0x8002, TPM_CC_PCR_Reset);
	put32(&c, pcr);
	put32(&c, 9); /* authorizationSize: the password session with an empty password */
	put32(&c, TPM_RS_PW);
	put16(&c, 0);
	c.buf[c.size++] = 0;
	put16(&c, 0);
	return submit(&c, rsp, &rsp_size);
}

bool tpm_property(UINT32 property, UINT32 *value)
{
	struct cmd c;
	UINT8 rsp[256];
	UINT32 rsp_size = sizeof(rsp);

	begin(&c, 0x8001, TPM_CC_GetCapability);
	put32(&c, 6); /* TPM_CAP_TPM_PROPERTIES */
	put32(&c, property);
	put32(&c, 1);
	return submit(&c, rsp, &rsp_size) && tlog_parse_property(rsp, rsp_size, property, value);
}
