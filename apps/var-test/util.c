/* Helpers shared by var-test's suites. */
#include "var_test.h"
#include <efi/global_variable.h>

EFI_GUID vt_guid = {0x7e57a11e, 0x5a1e, 0x4c6f, {0x9a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x81}};
EFI_GUID vt_guid2 = {0x7e57a11e, 0x5a1e, 0x4c6f, {0x9a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x82}};
EFI_GUID vt_global = EFI_GLOBAL_VARIABLE;
EFI_GUID vt_hwerr = EFI_HARDWARE_ERROR_VARIABLE;

EFI_STATUS vt_set(const CHAR16 *name, EFI_GUID *guid, UINT32 attributes, UINTN size,
		  const void *data)
{
	return app_rt->SetVariable((CHAR16 *)name, guid, attributes, size, (void *)data);
}

EFI_STATUS vt_get(const CHAR16 *name, EFI_GUID *guid, UINT32 *attributes, UINTN *size, void *data)
{
	return app_rt->GetVariable((CHAR16 *)name, guid, attributes, size, data);
}

bool vt_holds(const CHAR16 *name, EFI_GUID *guid, UINT32 attributes, const void *data, UINTN size)
{
	UINT8 buf[512];
	UINTN got = sizeof(buf);
	UINT32 a = 0;

	return size <= sizeof(buf) && vt_get(name, guid, &a, &got, buf) == EFI_SUCCESS &&
	       a == attributes && got == size && !mem_cmp(buf, data, size);
}

bool vt_exists(const CHAR16 *name, EFI_GUID *guid)
{
	UINTN size = 0;

	return vt_get(name, guid, NULL, &size, NULL) == EFI_BUFFER_TOO_SMALL;
}

void vt_remove(const CHAR16 *name, EFI_GUID *guid)
{
	if (vt_exists(name, guid))
		vt_set(name, guid, 0, 0, NULL);
}

UINTN vt_enumerate(const CHAR16 *name, EFI_GUID *guid, bool *found)
{
	CHAR16 buf[256];
	EFI_GUID g;
	UINTN count = 0, size;

	*found = false;
	buf[0] = 0;
	for (;;) {
		size = sizeof(buf);
		if (app_rt->GetNextVariableName(&size, buf, &g) != EFI_SUCCESS)
			break;
		count++;
		if (name && !str16_cmp(buf, name) && guid_eq(&g, guid))
			*found = true;
	}
	return count;
}

UINTN vt_load_option(UINT8 *out, UINT32 attributes, const CHAR16 *description)
{
	static const CHAR16 file[] = u"\\EFI\\ember\\test.efi";
	UINTN at = sizeof(EFI_LOAD_OPTION_HEAD), desc = str16_size(description);
	UINT16 node = (UINT16)(4 + sizeof(file)), fpll = (UINT16)(node + 4);
	EFI_LOAD_OPTION_HEAD head = {attributes, fpll};

	mem_copy(out, &head, sizeof(head));
	mem_copy(out + at, description, desc);
	at += desc;
	out[at] = MEDIA_DEVICE_PATH;
	out[at + 1] = MEDIA_FILEPATH_DP;
	mem_copy(out + at + 2, &node, 2);
	mem_copy(out + at + 4, file, sizeof(file));
	at += node;
	out[at] = END_DEVICE_PATH_TYPE;
	out[at + 1] = END_ENTIRE_DEVICE_PATH_SUBTYPE;
	out[at + 2] = 4;
	out[at + 3] = 0;
	return at + 4;
}

bool vt_hwerr_supported(void)
{
	UINT16 level = 0;
	UINTN size = sizeof(level);

	return vt_get(u"HwErrRecSupport", &vt_global, NULL, &size, &level) == EFI_SUCCESS && level;
}
