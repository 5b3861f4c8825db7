/* The forms browser's copies of an EFI varstore (core/hii/browser_storage.c): defaults
 * when the variable is missing, SetVariable on save with the varstore's attributes, and
 * the saved bytes read back by the next session. */
#include <stdlib.h>
#include <string.h>
#include "support/test.h"
#include "test_varstore.h"
#include "../../core/hii/browser.h"
#include <ember/core/core.h>
#include <ember/core/varstore.h>

static const EFI_GUID store_guid = {0x5a5a5a5a, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
#define ATTRS (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)

static struct ifr_varstore stores[1];
static struct ifr_statement stmts[2];

static void session(struct browser *b)
{
	static UINT8 *data[1];

	memset(b, 0, sizeof(*b));
	stores[0] = (struct ifr_varstore){.id = 1,
					  .guid = store_guid,
					  .size = 4,
					  .efi = true,
					  .attributes = ATTRS,
					  .name = u"EfiStore"};
	stmts[0] = (struct ifr_statement){.kind = IFR_CHECKBOX,
					  .question_id = 1,
					  .varstore_id = 1,
					  .width = 1,
					  .has_default = true,
					  .default_value = 1};
	stmts[1] = (struct ifr_statement){.kind = IFR_NUMERIC,
					  .question_id = 2,
					  .varstore_id = 1,
					  .var_offset = 2,
					  .width = 2,
					  .has_default = true,
					  .default_value = 7};
	b->fs.stores = stores, b->fs.store_count = 1;
	b->fs.stmts = stmts, b->fs.stmt_count = 2;
	data[0] = NULL;
	b->data = data;
}

TEST(hii_browser_efi_varstore)
{
	struct nor_sim flash;
	struct browser b;
	UINT8 got[8];
	UINTN size = sizeof(got);
	UINT32 attributes;

	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	ASSERT_STATUS(variables_start(&flash.dev), EFI_SUCCESS);
	session(&b);
	ASSERT_STATUS(browser_load(&b), EFI_SUCCESS);
	EXPECT_EQ(browser_value(&b, &stmts[0]), 1u); /* defaults: no variable yet */
	EXPECT_EQ(browser_value(&b, &stmts[1]), 7u);
	browser_set_value(&b, &stmts[1], 300);
	ASSERT_STATUS(browser_save(&b), EFI_SUCCESS);
	pool_free(b.data[0]);
	ASSERT_STATUS(variable_get(u"EfiStore", &store_guid, &attributes, &size, got), EFI_SUCCESS);
	EXPECT(size == 4 && got[0] == 1 && got[2] == 0x2c && got[3] == 1);
	EXPECT_EQ(attributes, ATTRS);
	/* The next session reads the variable, not the defaults. */
	got[0] = 0;
	ASSERT_STATUS(variable_set(u"EfiStore", &store_guid, ATTRS, 4, got), EFI_SUCCESS);
	session(&b);
	ASSERT_STATUS(browser_load(&b), EFI_SUCCESS);
	EXPECT_EQ(browser_value(&b, &stmts[0]), 0u);
	EXPECT_EQ(browser_value(&b, &stmts[1]), 300u);
	pool_free(b.data[0]);
	nor_free(&flash);
}
