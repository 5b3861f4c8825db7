/* HID report descriptors of pointing devices (see hid_report.h). */
#include "hid_report.h"
#include <ember/lib/str.h>

#define MAX_USAGES 16
#define PAGE_DESKTOP 0x01
#define PAGE_BUTTON 0x09
#define USAGE_X 0x30
#define USAGE_Y 0x31
#define USAGE_WHEEL 0x38
#define INPUT_CONSTANT 0x01
#define INPUT_RELATIVE 0x04

enum { MAIN = 0, GLOBAL = 1, LOCAL = 2 };

struct parser {
	UINT16 page;
	INT32 min, max;
	UINT32 size, count;
	UINT8 id;
	bool ids; /* reports carry an ID byte */
	UINT32 usages[MAX_USAGES];
	UINT32 num_usages, usage_min, usage_max;
	bool range;
	UINT16 offsets[256]; /* bits used so far, per report ID */
	struct hid_pointer *out;
};

static UINT32 item_value(const UINT8 *p, UINT32 size)
{
	UINT32 v = 0;

	for (UINT32 i = 0; i < size; i++)
		v |= (UINT32)p[i] << (8 * i);
	return v;
}

static INT32 item_signed(UINT32 v, UINT32 size)
{
	if (size == 1)
		return (INT8)v;
	if (size == 2)
		return (INT16)v;
	return (INT32)v;
}

static void clear_locals(struct parser *p)
{
	p->num_usages = 0;
	p->range = false;
}

/* The usage of the nth field of an Input item: full 32-bit (page << 16 | id). */
static UINT32 usage_of(struct parser *p, UINT32 n)
{
	UINT32 u;

	if (p->range)
		u = p->usage_min + n <= p->usage_max ? p->usage_min + n : 0;
	else if (n < p->num_usages)
		u = p->usages[n];
	else
		u = p->num_usages ? p->usages[p->num_usages - 1] : 0;
	return u > 0xffff ? u : (UINT32)p->page << 16 | u;
}

static void place(struct parser *p, UINT32 usage, UINT16 offset, bool relative)
{
	struct hid_pointer *o = p->out;
	struct hid_field f = {offset, (UINT8)p->size, p->min, p->max};
	struct hid_field *slot = NULL;

	if (usage == (PAGE_DESKTOP << 16 | USAGE_X) && !o->x.size) {
		slot = &o->x;
		o->relative = relative;
		o->report_id = p->id;
	} else if (usage == (PAGE_DESKTOP << 16 | USAGE_Y) && !o->y.size && p->id == o->report_id) {
		slot = &o->y;
	} else if (usage == (PAGE_DESKTOP << 16 | USAGE_WHEEL) && p->id == o->report_id) {
		slot = &o->wheel;
	} else if ((usage >> 16) == PAGE_BUTTON && (usage & 0xffff) >= 1 && (usage & 0xffff) <= 3 &&
		   p->id == o->report_id) {
		slot = &o->buttons[(usage & 0xffff) - 1];
	}
	if (slot && !slot->size && p->size <= 32)
		*slot = f;
}

static EFI_STATUS input_item(struct parser *p, UINT32 flags)
{
	UINT32 bits = p->size * p->count;
	UINT16 *offset = &p->offsets[p->id];

	if (bits > HID_REPORT_MAX_BYTES * 8 || *offset + bits > HID_REPORT_MAX_BYTES * 8)
		return EFI_NOT_FOUND;
	if (!(flags & INPUT_CONSTANT))
		for (UINT32 n = 0; n < p->count; n++)
			place(p, usage_of(p, n), (UINT16)(*offset + n * p->size),
			      flags & INPUT_RELATIVE);
	*offset = (UINT16)(*offset + bits);
	return EFI_SUCCESS;
}

static EFI_STATUS global_item(struct parser *p, UINT32 tag, UINT32 v, UINT32 size)
{
	switch (tag) {
	case 0:
		p->page = (UINT16)v;
		return EFI_SUCCESS;
	case 1:
		p->min = item_signed(v, size);
		return EFI_SUCCESS;
	case 2:
		/* A maximum above a non-negative minimum is read unsigned. */
		p->max = p->min >= 0 ? (INT32)(v & 0x7fffffff) : item_signed(v, size);
		return EFI_SUCCESS;
	case 7:
		p->size = v;
		return v <= 32 ? EFI_SUCCESS : EFI_NOT_FOUND;
	case 8:
		if (!v || v > 255)
			return EFI_NOT_FOUND;
		p->id = (UINT8)v;
		p->ids = true;
		return EFI_SUCCESS;
	case 9:
		p->count = v;
		return v <= HID_REPORT_MAX_BYTES * 8 ? EFI_SUCCESS : EFI_NOT_FOUND;
	case 10: /* push */
	case 11: /* pop */
		return EFI_NOT_FOUND;
	default:
		return EFI_SUCCESS;
	}
}

static void local_item(struct parser *p, UINT32 tag, UINT32 v)
{
	if (tag == 0 && p->num_usages < MAX_USAGES)
		p->usages[p->num_usages++] = v;
	else if (tag == 1)
		p->usage_min = v, p->range = true;
	else if (tag == 2)
		p->usage_max = v, p->range = true;
}

static EFI_STATUS item(struct parser *p, UINT8 prefix, UINT32 v, UINT32 size)
{
	UINT32 type = (prefix >> 2) & 3, tag = prefix >> 4;
	EFI_STATUS status = EFI_SUCCESS;

	if (type == GLOBAL)
		return global_item(p, tag, v, size);
	if (type == LOCAL) {
		local_item(p, tag, v);
		return EFI_SUCCESS;
	}
	if (type == MAIN && tag == 8)
		status = input_item(p, v);
	if (type == MAIN)
		clear_locals(p);
	return status;
}

EFI_STATUS hid_report_pointer(const UINT8 *desc, UINTN len, struct hid_pointer *out)
{
	static const UINT8 sizes[4] = {0, 1, 2, 4};
	struct parser p;
	UINTN at = 0;

	mem_set(&p, 0, sizeof(p));
	mem_set(out, 0, sizeof(*out));
	p.out = out;
	while (at < len) {
		UINT8 prefix = desc[at];
		UINT32 size = sizes[prefix & 3];

		if (prefix == 0xfe) { /* a long item: skipped */
			if (len - at < 3 || desc[at + 1] > len - at - 3)
				return EFI_NOT_FOUND;
			at += 3u + desc[at + 1];
			continue;
		}
		if (size > len - at - 1)
			return EFI_NOT_FOUND;
		if (EFI_ERROR(item(&p, prefix, item_value(desc + at + 1, size), size)))
			return EFI_NOT_FOUND;
		at += 1 + size;
	}
	if (!out->x.size || !out->y.size)
		return EFI_UNSUPPORTED;
	if (p.ids && !out->report_id)
		return EFI_NOT_FOUND; /* fields before the first ID in a report with IDs */
	return EFI_SUCCESS;
}

bool hid_report_value(const UINT8 *report, UINTN len, const struct hid_field *f, INT32 *value)
{
	UINT32 v = 0;

	if (!f->size || (UINTN)f->offset + f->size > len * 8)
		return false;
	for (UINT32 i = 0; i < f->size; i++) {
		UINT32 bit = f->offset + i;

		v |= (UINT32)((report[bit / 8] >> (bit % 8)) & 1) << i;
	}
	if (f->min < 0 && f->size < 32 && (v >> (f->size - 1)) & 1)
		v |= ~0u << f->size; /* sign-extend */
	*value = (INT32)v;
	return true;
}
