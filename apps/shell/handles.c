/* Handle numbers for dh, devices and drivers: stable for the session. */
#include "internal.h"

static bool known(const struct sh_handle_table *t, EFI_HANDLE h)
{
	for (UINTN i = 0; i < t->count; i++)
		if (t->handles[i] == h)
			return true;
	return false;
}

static void append(struct sh_handle_table *t, EFI_HANDLE h)
{
	if (t->count == t->cap) {
		UINTN cap = t->cap ? t->cap * 2 : 128;
		EFI_HANDLE *handles = app_alloc(cap * sizeof(*handles));
		if (!handles)
			return;
		if (t->count)
			mem_copy(handles, t->handles, t->count * sizeof(*handles));
		app_free(t->handles);
		t->handles = handles;
		t->cap = cap;
	}
	t->handles[t->count++] = h;
}

void sh_handles_refresh(struct shell *sh)
{
	EFI_HANDLE *all = NULL;
	UINTN n = 0;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(AllHandles, NULL, NULL, &n, &all)))
		return;
	for (UINTN i = 0; i < n; i++)
		if (!known(&sh->handles, all[i]))
			append(&sh->handles, all[i]);
	app_free(all);
}

/* Whether h is still a handle in the firmware's database. */
static bool alive(EFI_HANDLE h)
{
	EFI_GUID **protocols = NULL;
	UINTN count = 0;

	if (EFI_ERROR(app_bs->ProtocolsPerHandle(h, &protocols, &count)))
		return false;
	app_free(protocols);
	return true;
}

UINTN sh_handle_index(struct shell *sh, EFI_HANDLE h)
{
	if (!h)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		for (UINTN i = 0; i < sh->handles.count; i++)
			if (sh->handles.handles[i] == h)
				return i + 1;
		if (!alive(h))
			return 0;
		sh_handles_refresh(sh);
	}
	return 0;
}

EFI_HANDLE sh_handle_lookup(struct shell *sh, UINTN index)
{
	EFI_HANDLE h;

	if (!index || index > sh->handles.count)
		return NULL;
	h = sh->handles.handles[index - 1];
	return alive(h) ? h : NULL;
}

UINTN sh_handle_max(struct shell *sh)
{
	return sh->handles.count;
}
