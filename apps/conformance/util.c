/* Helpers shared by the conformance suites. */
#include "conformance.h"
#include <efi/protocol/driver_binding.h>
#include <efi/protocol/simple_file_system.h>
#include <efi/protocol/simple_text_input_ex.h>

EFI_GUID guid_loaded_image = EFI_LOADED_IMAGE_PROTOCOL_GUID;
EFI_GUID guid_loaded_image_dp = EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID;
EFI_GUID guid_device_path = EFI_DEVICE_PATH_PROTOCOL_GUID;
EFI_GUID guid_driver_binding = EFI_DRIVER_BINDING_PROTOCOL_GUID;
EFI_GUID guid_simple_fs = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
EFI_GUID guid_text_in = EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID;
EFI_GUID guid_text_in_ex = EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL_GUID;
EFI_GUID guid_text_out = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;

EFI_GUID *tguid(unsigned slot)
{
	static EFI_GUID guids[G_SLOTS];
	static const EFI_GUID base = {
	    0x434e5ddc, 0x2e39, 0x426d, {0x81, 0x39, 0xe0, 0x20, 0x54, 0xc8, 0x9d, 0x00}};

	if (slot >= G_SLOTS)
		slot = G_SLOTS - 1;
	guids[slot] = base;
	guids[slot].Data4[7] = (UINT8)slot;
	return &guids[slot];
}

EFI_TPL current_tpl(void)
{
	EFI_TPL tpl = app_bs->RaiseTPL(TPL_HIGH_LEVEL);

	app_bs->RestoreTPL(tpl);
	return tpl;
}

void EFIAPI count_notify(EFI_EVENT event, void *ctx)
{
	(*(UINTN *)ctx)++;
}

void EFIAPI log_notify(EFI_EVENT event, void *ctx)
{
	struct log_ctx *lc = ctx;
	struct notify_log *log = lc->log;

	if (log->count < ARRAY_SIZE(log->entry)) {
		log->entry[log->count].id = lc->id;
		log->entry[log->count].tpl = current_tpl();
		log->entry[log->count].event = event;
	}
	log->count++;
}

EFI_STATUS mmap_get(struct mmap *m)
{
	EFI_STATUS status;

	mem_set(m, 0, sizeof(*m));
	for (int tries = 0; tries < 4; tries++) {
		UINTN size = 0;
		status =
		    app_bs->GetMemoryMap(&size, NULL, &m->key, &m->desc_size, &m->desc_version);
		if (status != EFI_BUFFER_TOO_SMALL)
			return EFI_ERROR(status) ? status : EFI_DEVICE_ERROR;
		/* Allocating the buffer may itself add descriptors. */
		size += 8 * sizeof(EFI_MEMORY_DESCRIPTOR) + 8 * m->desc_size;
		m->buf = app_alloc(size);
		if (!m->buf)
			return EFI_OUT_OF_RESOURCES;
		m->cap = m->size = size;
		status = app_bs->GetMemoryMap(&m->size, (EFI_MEMORY_DESCRIPTOR *)m->buf, &m->key,
					      &m->desc_size, &m->desc_version);
		if (status == EFI_SUCCESS)
			return status;
		app_free(m->buf);
		m->buf = NULL;
	}
	return status;
}

void mmap_free(struct mmap *m)
{
	app_free(m->buf);
	m->buf = NULL;
}

UINTN mmap_count(const struct mmap *m)
{
	return m->desc_size ? m->size / m->desc_size : 0;
}

EFI_MEMORY_DESCRIPTOR *mmap_desc(const struct mmap *m, UINTN i)
{
	return (EFI_MEMORY_DESCRIPTOR *)(m->buf + i * m->desc_size);
}

EFI_MEMORY_DESCRIPTOR *mmap_find(const struct mmap *m, UINT64 addr)
{
	for (UINTN i = 0; i < mmap_count(m); i++) {
		EFI_MEMORY_DESCRIPTOR *d = mmap_desc(m, i);
		if (addr >= d->PhysicalStart &&
		    addr - d->PhysicalStart < d->NumberOfPages * EFI_PAGE_SIZE)
			return d;
	}
	return NULL;
}

UINT32 memory_type_at(UINT64 addr)
{
	struct mmap m;
	UINT32 type = ~0u;

	if (mmap_get(&m) != EFI_SUCCESS)
		return type;
	EFI_MEMORY_DESCRIPTOR *d = mmap_find(&m, addr);
	if (d)
		type = d->Type;
	mmap_free(&m);
	return type;
}

static EFI_STATUS list_handles(EFI_GUID *proto, UINTN *count, EFI_HANDLE **buf)
{
	return app_bs->LocateHandleBuffer(proto ? ByProtocol : AllHandles, proto, NULL, count, buf);
}

bool handle_listed(EFI_HANDLE h, EFI_GUID *proto)
{
	UINTN count = 0;
	EFI_HANDLE *buf = NULL;
	bool found = false;

	if (list_handles(proto, &count, &buf) != EFI_SUCCESS)
		return false;
	for (UINTN i = 0; i < count; i++)
		found |= buf[i] == h;
	app_free(buf);
	return found;
}

UINTN handle_count(EFI_GUID *proto)
{
	UINTN count = 0;
	EFI_HANDLE *buf = NULL;

	if (list_handles(proto, &count, &buf) != EFI_SUCCESS)
		return 0;
	app_free(buf);
	return count;
}
