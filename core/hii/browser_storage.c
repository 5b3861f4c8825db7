#define LOG_PREFIX "browser: "
/* The forms browser's copies of varstores (UEFI 2.10, 35.6): a buffer varstore is read
 * and written as configuration strings through the routing protocol (which hands them to
 * the driver's Config Access), an EFI varstore as its UEFI variable. */
#include "browser.h"
#include <ember/core/hii_config.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>

/* The whole varstore's request. */
CHAR16 *browser_whole_request(const struct browser *b, const struct ifr_varstore *v)
{
	return hii_config_store_request(v, b->driver_path);
}

static EFI_STATUS load_routed(struct browser *b, const struct ifr_varstore *v, UINT8 *data)
{
	EFI_HII_CONFIG_ROUTING_PROTOCOL *r = &hii_config_routing_protocol;
	CHAR16 *request = browser_whole_request(b, v);
	EFI_STRING results = NULL, progress;
	UINTN size = v->size;
	EFI_STATUS status;

	if (!request)
		return EFI_OUT_OF_RESOURCES;
	status = r->ExtractConfig(r, request, &progress, &results);
	if (!EFI_ERROR(status))
		status = r->ConfigToBlock(r, results, data, &size, &progress);
	if (EFI_ERROR(status))
		log_debug("reading varstore %u from its driver: %r\n", v->id, status);
	pool_free(results);
	pool_free(request);
	return status;
}

static EFI_STATUS load_variable(const struct ifr_varstore *v, UINT8 *data)
{
	UINTN size = v->size;
	EFI_STATUS status = variable_get(v->name, &v->guid, NULL, &size, data);

	if (EFI_ERROR(status))
		log_debug("reading variable of varstore %u: %r\n", v->id, status);
	return status;
}

/* An ordered list's default: its options in the order given. */
static void ordered_defaults(struct browser *b, const struct ifr_statement *s)
{
	UINT8 *p = browser_storage(b, s);

	for (UINT16 i = 0; p && i < s->option_count && i < s->containers; i++)
		mem_copy(p + i * s->width, &b->fs.options[s->first_option + i].value, s->width);
}

/* The questions' defaults into a varstore's copy. */
static void defaults(struct browser *b, EFI_VARSTORE_ID id)
{
	for (UINT16 i = 0; i < b->fs.stmt_count; i++) {
		const struct ifr_statement *s = &b->fs.stmts[i];

		if (s->varstore_id == id && s->kind == IFR_ORDERED_LIST)
			ordered_defaults(b, s);
		else if (s->varstore_id == id && s->has_default)
			browser_set_value(b, s, s->default_value);
	}
}

/* Reads every varstore's values. */
EFI_STATUS browser_load(struct browser *b)
{
	for (UINT16 i = 0; i < b->fs.store_count; i++) {
		const struct ifr_varstore *v = &b->fs.stores[i];
		EFI_STATUS status;

		b->data[i] = pool_alloc(v->size ? v->size : 1);
		if (!b->data[i])
			return EFI_OUT_OF_RESOURCES;
		status = v->efi ? load_variable(v, b->data[i]) : load_routed(b, v, b->data[i]);
		if (EFI_ERROR(status))
			defaults(b, v->id);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS save_routed(struct browser *b, const struct ifr_varstore *v, UINT8 *data)
{
	EFI_HII_CONFIG_ROUTING_PROTOCOL *r = &hii_config_routing_protocol;
	CHAR16 *request = browser_whole_request(b, v);
	EFI_STRING config = NULL, progress;
	EFI_STATUS status;

	if (!request)
		return EFI_OUT_OF_RESOURCES;
	status = r->BlockToConfig(r, request, data, v->size, &config, &progress);
	if (!EFI_ERROR(status))
		status = r->RouteConfig(r, config, &progress);
	pool_free(config);
	pool_free(request);
	return status;
}

/* Writes every varstore back. */
EFI_STATUS browser_save(struct browser *b)
{
	EFI_STATUS result = EFI_SUCCESS;

	for (UINT16 i = 0; i < b->fs.store_count; i++) {
		const struct ifr_varstore *v = &b->fs.stores[i];
		EFI_STATUS status =
		    v->efi ? variable_set(v->name, &v->guid, v->attributes, v->size, b->data[i])
			   : save_routed(b, v, b->data[i]);

		if (EFI_ERROR(status)) {
			log_warn("saving varstore %u: %r\n", v->id, status);
			result = status;
		}
	}
	if (!EFI_ERROR(result))
		b->dirty = false;
	return result;
}

/* Where a question's value is in its varstore's copy, or NULL. */
UINT8 *browser_storage(const struct browser *b, const struct ifr_statement *s)
{
	for (UINT16 i = 0; i < b->fs.store_count; i++) {
		if (b->fs.stores[i].id == s->varstore_id && s->varstore_id)
			return b->data[i] + s->var_offset; /* the reader checked the range */
	}
	return NULL;
}

/* A question's value. */
UINT64 browser_value(const struct browser *b, const struct ifr_statement *s)
{
	UINT8 *p = browser_storage(b, s);
	UINT64 v = 0;

	if (p && s->width <= sizeof(v))
		mem_copy(&v, p, s->width);
	return v;
}

/* Changes a question's value. */
void browser_set_value(struct browser *b, const struct ifr_statement *s, UINT64 value)
{
	UINT8 *p = browser_storage(b, s);

	if (p && s->width <= sizeof(value))
		mem_copy(p, &value, s->width);
}

/* A string question's text. */
void browser_string(const struct browser *b, const struct ifr_statement *s, CHAR16 *out,
		    size_t units)
{
	UINT8 *p = browser_storage(b, s);
	size_t n = 0;

	for (; p && n + 1 < units && n < s->max_len; n++) {
		mem_copy(&out[n], p + 2 * n, 2);
		if (!out[n])
			break;
	}
	out[n] = 0;
}

/* Changes a string question's text (cut at its MaxSize). */
void browser_set_string(struct browser *b, const struct ifr_statement *s, const CHAR16 *text)
{
	UINT8 *p = browser_storage(b, s);

	if (!p)
		return;
	mem_set(p, 0, s->width);
	for (size_t n = 0; n < s->max_len && text[n]; n++)
		mem_copy(p + 2 * n, &text[n], 2);
}
