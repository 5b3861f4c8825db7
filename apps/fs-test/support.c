/* fs-test: output, checks and file helpers. */
#include <stdarg.h>

#include "fs_test.h"

EFI_GUID fst_file_info_guid = EFI_FILE_INFO_ID;
EFI_GUID fst_fs_info_guid = EFI_FILE_SYSTEM_INFO_ID;
EFI_GUID fst_label_guid = EFI_FILE_SYSTEM_VOLUME_LABEL_ID;

static UINTN passed, failed;

void fst_print(const char *fmt, ...)
{
	char text[512];
	CHAR16 wide[sizeof(text)], out[2 * sizeof(text)];
	size_t n = 0, len;
	va_list ap;

	va_start(ap, fmt);
	format_vsn(text, sizeof(text), fmt, ap);
	va_end(ap);
	len = utf8_to_ucs2(wide, ARRAY_SIZE(wide), text, str8_len(text));
	for (size_t i = 0; i < len; i++) {
		if (wide[i] == u'\n')
			out[n++] = u'\r';
		out[n++] = wide[i];
	}
	out[n] = 0;
	fst_st->ConOut->OutputString(fst_st->ConOut, out);
}

bool fst_check(bool ok, const char *expr, const char *file, int line)
{
	if (ok) {
		passed++;
		return true;
	}
	failed++;
	fst_print("FAIL %s:%d: %s\n", file, line, expr);
	return false;
}

bool fst_check_status(EFI_STATUS got, EFI_STATUS want, const char *expr, const char *file, int line)
{
	if (got == want) {
		passed++;
		return true;
	}
	failed++;
	fst_print("FAIL %s:%d: %s returned %r, expected %r\n", file, line, expr, got, want);
	return false;
}

bool fst_check_u64(UINT64 got, UINT64 want, const char *expr, const char *file, int line)
{
	if (got == want) {
		passed++;
		return true;
	}
	failed++;
	fst_print("FAIL %s:%d: %s: got 0x%llx, expected 0x%llx\n", file, line, expr, got, want);
	return false;
}

bool fst_summary(void)
{
	/* UINT64 is the "ll" size on the PE target. */
	fst_print("fs-test: %llu passed, %llu failed\n", (UINT64)passed, (UINT64)failed);
	return failed == 0;
}

void *fst_alloc(UINTN size)
{
	void *p = NULL;

	if (EFI_ERROR(fst_bs->AllocatePool(EfiLoaderData, size, &p)))
		return NULL;
	mem_set(p, 0, size);
	return p;
}

void fst_free(void *p)
{
	if (p)
		fst_bs->FreePool(p);
}

EFI_FILE_PROTOCOL *fst_open(EFI_FILE_PROTOCOL *from, const CHAR16 *name, UINT64 mode,
			    UINT64 attributes, const char *file, int line)
{
	EFI_FILE_PROTOCOL *f = NULL;
	EFI_STATUS status = from->Open(from, &f, (CHAR16 *)name, mode, attributes);

	if (!fst_check_status(status, EFI_SUCCESS, "Open", file, line)) {
		fst_print("     (opening \"%ls\")\n", name);
		return NULL;
	}
	return f;
}

EFI_STATUS fst_write(EFI_FILE_PROTOCOL *f, const void *data, UINTN size)
{
	UINTN n = size;
	EFI_STATUS status = f->Write(f, &n, (void *)data);

	if (!EFI_ERROR(status) && n != size)
		return EFI_DEVICE_ERROR;
	return status;
}

bool fst_make_file(EFI_FILE_PROTOCOL *from, const CHAR16 *path, const char *text)
{
	EFI_FILE_PROTOCOL *f = OPEN(from, path, CREATE_MODE, 0);
	EFI_FILE_INFO *info;
	bool ok;

	if (!f)
		return false;
	info = fst_file_info(f);
	ok = info != NULL;
	if (ok && info->FileSize) {
		info->FileSize = 0;
		ok = !EFI_ERROR(f->SetInfo(f, &fst_file_info_guid, (UINTN)info->Size, info));
	}
	fst_free(info);
	ok = ok && fst_write(f, text, str8_len(text)) == EFI_SUCCESS;
	f->Close(f);
	return CHECK(ok);
}

bool fst_file_holds(EFI_FILE_PROTOCOL *from, const CHAR16 *path, const void *data, UINTN size)
{
	EFI_FILE_PROTOCOL *f = NULL;
	UINTN n = size + 16;
	UINT8 *buffer = fst_alloc(n);
	bool ok = buffer && !EFI_ERROR(from->Open(from, &f, (CHAR16 *)path, READ_ONLY_MODE, 0));

	ok = ok && !EFI_ERROR(f->Read(f, &n, buffer)) && n == size &&
	     mem_cmp(buffer, data, size) == 0;
	if (f)
		f->Close(f);
	fst_free(buffer);
	return ok;
}

EFI_FILE_INFO *fst_file_info(EFI_FILE_PROTOCOL *f)
{
	UINTN size = 0;
	EFI_FILE_INFO *info;

	if (f->GetInfo(f, &fst_file_info_guid, &size, NULL) != EFI_BUFFER_TOO_SMALL)
		return NULL;
	info = fst_alloc(size);
	if (info && EFI_ERROR(f->GetInfo(f, &fst_file_info_guid, &size, info))) {
		fst_free(info);
		return NULL;
	}
	return info;
}

bool fst_exists(EFI_FILE_PROTOCOL *from, const CHAR16 *path)
{
	EFI_FILE_PROTOCOL *f = NULL;

	if (EFI_ERROR(from->Open(from, &f, (CHAR16 *)path, READ_ONLY_MODE, 0)))
		return false;
	f->Close(f);
	return true;
}

EFI_STATUS fst_set_info(EFI_FILE_PROTOCOL *f, const EFI_FILE_INFO *info, const CHAR16 *name)
{
	UINTN size = SIZE_OF_EFI_FILE_INFO + str16_size(name);
	EFI_FILE_INFO *copy = fst_alloc(size);
	EFI_STATUS status;

	if (!copy)
		return EFI_OUT_OF_RESOURCES;
	mem_copy(copy, info, SIZE_OF_EFI_FILE_INFO);
	copy->Size = size;
	str16_copy(copy->FileName, name);
	status = f->SetInfo(f, &fst_file_info_guid, size, copy);
	fst_free(copy);
	return status;
}
