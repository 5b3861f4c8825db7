/* The wrappers of the Bulk-Only Transport (5.1, 5.2, 6.3): the CBW Ember sends and the
 * checks of the CSW the device sends back, outside data (fuzzed by tests/fuzz/fuzz_usb_bot.c). */
#include "usb_bot.h"
#include <ember/lib/str.h>

static void put32(UINT8 *p, UINT32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (UINT8)(v >> (8 * i));
}

static UINT32 get32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

bool usb_bot_cbw_build(UINT8 out[USB_BOT_CBW_LEN], UINT32 tag, UINT32 length, bool in, UINT8 lun,
		       const UINT8 *cdb, UINT8 cdb_len)
{
	if (!cdb_len || cdb_len > USB_BOT_MAX_CDB || lun > 15)
		return false;
	mem_set(out, 0, USB_BOT_CBW_LEN);
	put32(out, USB_BOT_CBW_SIGNATURE);
	put32(out + 4, tag);
	put32(out + 8, length);
	out[12] = in && length ? USB_BOT_CBW_IN : 0;
	out[13] = lun;
	out[14] = cdb_len;
	mem_copy(out + 15, cdb, cdb_len);
	return true;
}

enum usb_bot_csw_result usb_bot_csw_check(const UINT8 *data, UINTN len, UINT32 tag, UINT32 expected,
					  UINT32 *residue)
{
	UINT32 r;

	if (len != USB_BOT_CSW_LEN || get32(data) != USB_BOT_CSW_SIGNATURE ||
	    get32(data + 4) != tag)
		return USB_BOT_CSW_INVALID;
	if (data[12] == 2)
		return USB_BOT_CSW_PHASE_ERROR;
	r = get32(data + 8);
	/* A residue beyond what was asked, or an unknown status, means nothing: 6.3.2. */
	if (data[12] > 2 || r > expected)
		return USB_BOT_CSW_INVALID;
	*residue = r;
	return data[12] ? USB_BOT_CSW_FAILED : USB_BOT_CSW_PASSED;
}
