/* Fuzzes the variable store and services (varstore/): the first part of the input is the
 * flash image to mount (both as is and with VSTORE_NO_REFORMAT), the rest a program of
 * calls to every public entry point (SetVariable, GetVariable, GetNextVariableName,
 * QueryVariableInfo, compaction, remounting, ExitBootServices) with sizes, names,
 * attributes and pointers taken from the input. Besides memory errors it checks that a
 * successful SetVariable reads back, also after remounting, and that compaction keeps
 * every variable the mount found (the same names, GUIDs, attributes and data). */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/core/varstore.h>
#include <ember/lib/crc32.h>

#define FLASH_SIZE (2 * 8192)
#define FLASH_BLOCK 1024
#define NAME_UNITS 40

struct input {
	const uint8_t *p;
	size_t left;
};

static uint8_t byte(struct input *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static UINT8 image[FLASH_SIZE];
static struct flash_ram flash;
static struct var_service svc;
static UINT8 *mem;
static UINTN mem_size;

static const EFI_GUID guids[] = {
    EFI_GLOBAL_VARIABLE,
    {0x414e6bdd, 0xe47b, 0x47cc, {0xb2, 0x44, 0xbb, 0x61, 0x02, 0x0c, 0xf5, 0x16}},
    {0xd719b2cb, 0x3d3a, 0x4596, {0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f}},
    {0x12345678, 0x9abc, 0xdef0, {1, 2, 3, 4, 5, 6, 7, 8}},
};
static const CHAR16 *const names[] = {
    u"A",      u"BootOrder", u"Boot0001",     u"PlatformLang",
    u"Lang",   u"Timeout",   u"HwErrRec0001", u"SecureBoot",
    u"ConOut", u"Key0000",   u"db",	      u"BootNext",
};

static void name_from(struct input *in, CHAR16 *name)
{
	uint8_t pick = byte(in);

	if (pick < 200) {
		const CHAR16 *n = names[pick % (sizeof(names) / sizeof(names[0]))];
		for (int i = 0; i < NAME_UNITS; i++)
			if (!(name[i] = n[i]))
				break;
		return;
	}
	int len = byte(in) % (NAME_UNITS - 1);
	for (int i = 0; i < len; i++)
		name[i] = (CHAR16)(byte(in) | (byte(in) & 0x1) << 8);
	name[len] = 0;
}

static UINT32 attributes_from(struct input *in)
{
	static const UINT32 common[] = {0x7, 0x3, 0x6, 0xf, 0x47, 0x43, 0x27, 0x2, 0x1, 0x0};
	uint8_t a = byte(in);

	return a < 160 ? common[a % 10] : (UINT32)a | (UINT32)byte(in) << 8;
}

static void check_set(struct input *in)
{
	static UINT8 data[1024], back[1024];
	CHAR16 name[NAME_UNITS];
	const EFI_GUID *guid = &guids[byte(in) % 4];
	UINT32 attributes, got_attributes;
	UINTN size, got = sizeof(back);
	EFI_STATUS (*set)(struct var_service *, const CHAR16 *, const EFI_GUID *, UINT32, UINTN,
			  const void *);
	uint8_t how;

	name_from(in, name);
	attributes = attributes_from(in);
	size = (UINTN)byte(in) << (byte(in) % 3);
	for (UINTN i = 0; i < size && i < sizeof(data); i++)
		data[i] = byte(in);
	size = size > sizeof(data) ? sizeof(data) : size;
	how = byte(in);
	set = how & 0x80 ? var_set_firmware : var_set; /* the firmware skips the global rules */
	if (set(&svc, name, guid, attributes, size, (how & 0x7f) == 7 ? NULL : data) !=
		EFI_SUCCESS ||
	    !size || (attributes & EFI_VARIABLE_APPEND_WRITE) || !(attributes & 6))
		return;
	/* What was set reads back. */
	if (var_get(&svc, name, guid, &got_attributes, &got, back) != EFI_SUCCESS || got != size ||
	    memcmp(back, data, size) || got_attributes != attributes)
		abort();
}

static void get(struct input *in)
{
	static UINT8 data[2048];
	CHAR16 name[NAME_UNITS];
	const EFI_GUID *guid = &guids[byte(in) % 4];
	UINT32 attributes;
	UINTN size = byte(in) * 8u;
	uint8_t flags = byte(in);

	name_from(in, name);
	var_get(&svc, flags & 1 ? NULL : name, flags & 2 ? NULL : guid,
		flags & 4 ? NULL : &attributes, flags & 8 ? NULL : &size, flags & 16 ? NULL : data);
}

static void get_next(struct input *in)
{
	CHAR16 name[NAME_UNITS * 2];
	EFI_GUID guid = guids[byte(in) % 4];
	UINTN size;

	for (int i = 0; i < NAME_UNITS * 2; i++)
		name[i] = (CHAR16)byte(in);
	size = byte(in) % (sizeof(name) + 1); /* a caller's buffer really has size bytes */
	var_get_next(&svc, &size, name, &guid);
	name[0] = 0;
	for (int n = 0; n < 600; n++) {
		size = sizeof(name);
		if (var_get_next(&svc, &size, name, &guid) != EFI_SUCCESS)
			break;
	}
}

static void remount(void)
{
	if (EFI_ERROR(var_service_init(&svc, &flash.dev, mem, mem_size, 0)))
		abort(); /* a store once mounted always mounts again */
}

/* The store's variables as a count and an order-free sum of a CRC of each one's name,
 * GUID, attributes and data. */
static void fingerprint(struct vstore *s, UINT32 *count, UINT32 *sum)
{
	static UINT8 buf[VARSTORE_MAX_VARIABLE];

	*count = *sum = 0;
	for (UINT32 i = vstore_next(s, 0); i != VSTORE_NONE; i = vstore_next(s, i + 1)) {
		const struct vstore_entry *e = vstore_entry(s, i);
		UINT32 crc = crc32(&e->attributes, 1);
		EFI_GUID guid;
		if (EFI_ERROR(vstore_read_guid(s, i, &guid)) ||
		    EFI_ERROR(vstore_read_name(s, i, (CHAR16 *)buf)))
			abort();
		crc = crc32_update(crc32_update(crc, &guid, sizeof(guid)), buf, e->name_size);
		if (EFI_ERROR(vstore_read_data(s, i, 0, buf, e->data_size)))
			abort();
		*sum += crc32_update(crc, buf, e->data_size);
		++*count;
	}
}

static void compact(void)
{
	UINT32 count, sum, count_after, sum_after;

	fingerprint(&svc.nv, &count, &sum);
	if (EFI_ERROR(vstore_compact(&svc.nv)))
		return;
	fingerprint(&svc.nv, &count_after, &sum_after);
	if (count != count_after || sum != sum_after)
		abort();
}

static void step(struct input *in)
{
	UINT64 a, b, c;

	switch (byte(in) % 8) {
	case 0:
	case 1:
		check_set(in);
		break;
	case 2:
		get(in);
		break;
	case 3:
		get_next(in);
		break;
	case 4:
		var_query(&svc, attributes_from(in), &a, &b, &c);
		break;
	case 5:
		remount();
		break;
	case 6:
		svc.at_runtime = !svc.at_runtime;
		break;
	case 7:
		compact();
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = {data, size};
	size_t image_size = (size_t)byte(&in) << 8 | byte(&in);

	if (!mem) {
		mem_size = var_service_mem_size(FLASH_SIZE);
		mem = aligned_alloc(16, mem_size);
	}
	image_size = image_size % (FLASH_SIZE + 1);
	image_size = image_size < in.left ? image_size : in.left;
	memset(image, 0xff, sizeof(image));
	memcpy(image, in.p, image_size);
	in.p += image_size, in.left -= image_size;
	flash_ram_init(&flash, image, FLASH_SIZE, FLASH_BLOCK);
	var_service_init(&svc, &flash.dev, mem, mem_size, VSTORE_NO_REFORMAT);
	if (EFI_ERROR(var_service_init(&svc, &flash.dev, mem, mem_size, 0)))
		abort();
	var_globals_install(&svc);
	for (int n = 0; n < 64 && in.left; n++)
		step(&in);
	return 0;
}
