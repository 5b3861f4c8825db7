/* Environment variables: a list in memory; the non-volatile ones also as UEFI variables
 * under EFI_SHELL_VARIABLE_GUID, loaded at start. lasterror and cwd are computed. */
#include "internal.h"

static EFI_GUID shell_var_guid = EFI_SHELL_VARIABLE_GUID;

static struct sh_var *var_find(struct sh_var *list, const CHAR16 *name, size_t len)
{
	for (struct sh_var *v = list; v; v = v->next)
		if (sh_eqn_nocase(name, len, v->name))
			return v;
	return NULL;
}

/* Values computed on demand; the text lives in the shell until the next such lookup. */
static const CHAR16 *dynamic_value(struct shell *sh, const CHAR16 *name, size_t len)
{
	char text[40];

	if (sh_eqn_ascii(name, len, "lasterror")) {
		format_sn(text, sizeof(text), "0x%llx", (unsigned long long)sh->last_status);
		utf8_to_ucs2(sh->dyn_value, ARRAY_SIZE(sh->dyn_value), text, str8_len(text));
		return sh->dyn_value;
	}
	if (sh_eqn_ascii(name, len, "cwd")) {
		app_free(sh->cwd_value);
		sh->cwd_value = sh_cwd_text(sh);
		return sh->cwd_value ? sh->cwd_value : u"";
	}
	return NULL;
}

const CHAR16 *sh_env_lookup(void *ctx, const CHAR16 *name, size_t len)
{
	struct shell *sh = ctx;
	const CHAR16 *dyn = dynamic_value(sh, name, len);
	struct sh_var *v;

	if (dyn)
		return dyn;
	v = var_find(sh->vars, name, len);
	return v ? v->value : NULL;
}

const CHAR16 *sh_env_get(struct shell *sh, const CHAR16 *name)
{
	return sh_env_lookup(sh, name, str16_len(name));
}

static void var_unlink(struct sh_var **list, struct sh_var *v)
{
	for (struct sh_var **p = list; *p; p = &(*p)->next)
		if (*p == v) {
			*p = v->next;
			break;
		}
	app_free(v->name);
	app_free(v->value);
	app_free(v);
}

static EFI_STATUS store_nv(const CHAR16 *name, const CHAR16 *value)
{
	UINT32 attrs = EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS;

	return app_rt->SetVariable((CHAR16 *)name, &shell_var_guid, attrs,
				   value ? str16_size(value) : 0, (VOID *)value);
}

/* Sets a variable in a list (value NULL deletes); shared with aliases. */
EFI_STATUS sh_var_list_set(struct sh_var **list, const CHAR16 *name, const CHAR16 *value,
			   bool is_volatile)
{
	struct sh_var *v = var_find(*list, name, str16_len(name));
	CHAR16 *copy;

	if (!value) {
		if (!v)
			return EFI_NOT_FOUND;
		var_unlink(list, v);
		return EFI_SUCCESS;
	}
	copy = sh_strdup16(value);
	if (!copy)
		return EFI_OUT_OF_RESOURCES;
	if (!v) {
		v = app_zalloc(sizeof(*v));
		if (!v || !(v->name = sh_strdup16(name))) {
			app_free(v);
			app_free(copy);
			return EFI_OUT_OF_RESOURCES;
		}
		v->next = *list;
		*list = v;
	}
	app_free(v->value);
	v->value = copy;
	v->is_volatile = is_volatile;
	return EFI_SUCCESS;
}

EFI_STATUS sh_env_set(struct shell *sh, const CHAR16 *name, const CHAR16 *value, bool is_volatile)
{
	struct sh_var *old = var_find(sh->vars, name, str16_len(name));
	EFI_STATUS status;

	if (!name[0])
		return EFI_INVALID_PARAMETER;
	if (sh_eq_ascii(name, "lasterror") || sh_eq_ascii(name, "cwd"))
		return EFI_ACCESS_DENIED;
	/* A non-volatile variable that becomes volatile (or goes) leaves the store. */
	if (old && !old->is_volatile && (!value || is_volatile))
		store_nv(old->name, NULL);
	status = sh_var_list_set(&sh->vars, name, value, is_volatile);
	if (!EFI_ERROR(status) && value && !is_volatile)
		store_nv(name, value);
	return status;
}

/* Loads the non-volatile variables a previous session left. */
static void load_nv(struct shell *sh)
{
	static CHAR16 name[1024];
	EFI_GUID guid;

	name[0] = 0;
	for (;;) {
		UINTN size = sizeof(name), data_size = 0;
		CHAR16 *value;
		EFI_STATUS status = app_rt->GetNextVariableName(&size, name, &guid);
		if (EFI_ERROR(status))
			break;
		if (!guid_eq(&guid, &shell_var_guid))
			continue;
		status = app_rt->GetVariable(name, &guid, NULL, &data_size, NULL);
		if (status != EFI_BUFFER_TOO_SMALL || !(value = app_zalloc(data_size + 2)))
			continue;
		if (!EFI_ERROR(app_rt->GetVariable(name, &guid, NULL, &data_size, value)))
			sh_var_list_set(&sh->vars, name, value, false);
		app_free(value);
	}
}

EFI_STATUS sh_env_init(struct shell *sh)
{
	static const struct {
		const CHAR16 *name, *value;
	} defaults[] = {
	    {u"path", u".\\;fs0:\\efi\\tools\\;fs0:\\efi\\boot\\;fs0:\\"},
	    {u"uefishellversion", u"2.2"},
	    {u"uefishellsupport", u"3"},
	    {u"uefiversion", NULL},
	    {u"profiles", u";Driver1;Install1;Debug1;"},
	    {u"nonesting", u"False"},
	};
	char text[16];
	CHAR16 version[16];

	load_nv(sh);
	format_sn(text, sizeof(text), "%u.%u", (unsigned)(app_st->Hdr.Revision >> 16),
		  (unsigned)(app_st->Hdr.Revision & 0xffff) / 10);
	utf8_to_ucs2(version, ARRAY_SIZE(version), text, str8_len(text));
	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++) {
		const CHAR16 *value = defaults[i].value ? defaults[i].value : version;
		if (!var_find(sh->vars, defaults[i].name, str16_len(defaults[i].name)))
			sh_var_list_set(&sh->vars, defaults[i].name, value, true);
	}
	return EFI_SUCCESS;
}

static int by_name(const void *a, const void *b)
{
	return sh_cmp_nocase((*(struct sh_var *const *)a)->name,
			     (*(struct sh_var *const *)b)->name);
}

/* Calls fn for each entry of a list, sorted by name. */
void sh_var_list_each(struct shell *sh, struct sh_var *list,
		      void (*fn)(struct shell *sh, const struct sh_var *v, void *ctx), void *ctx)
{
	UINTN n = 0, i = 0;
	struct sh_var **sorted;

	for (struct sh_var *v = list; v; v = v->next)
		n++;
	sorted = app_alloc((n + 1) * sizeof(*sorted));
	if (!sorted)
		return;
	for (struct sh_var *v = list; v; v = v->next)
		sorted[i++] = v;
	for (i = 1; i < n; i++)
		for (UINTN j = i; j > 0 && by_name(&sorted[j - 1], &sorted[j]) > 0; j--) {
			struct sh_var *t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		fn(sh, sorted[i], ctx);
	app_free(sorted);
}

void sh_env_each(struct shell *sh, void (*fn)(struct shell *sh, const struct sh_var *v, void *ctx),
		 void *ctx)
{
	sh_var_list_each(sh, sh->vars, fn, ctx);
}
