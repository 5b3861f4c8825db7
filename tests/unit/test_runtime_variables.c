/* The firmware's variable services (core/runtime/runtime_services.c): started on a
 * platform flash, reached through the runtime services table, announced in the
 * EFI_RT_PROPERTIES_TABLE. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_varstore.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

static EFI_RT_PROPERTIES_TABLE *rt_properties(void)
{
	static const EFI_GUID guid = EFI_RT_PROPERTIES_TABLE_GUID;

	for (UINTN i = 0; i < core_st->NumberOfTableEntries; i++)
		if (guid_eq(&core_st->ConfigurationTable[i].VendorGuid, &guid))
			return core_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

TEST(variables_start_and_runtime_table)
{
	static struct nor_sim flash; /* the service keeps using it */
	EFI_RUNTIME_SERVICES *rt = core_st->RuntimeServices;
	EFI_GUID gv = EFI_GLOBAL_VARIABLE, g = test_var_guid(3);
	EFI_RT_PROPERTIES_TABLE *props = rt_properties();
	UINT8 buf[16];
	UINTN size = sizeof(buf);
	UINT32 attributes;

	ASSERT(props);
	if (!flash.bytes)
		nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	ASSERT_STATUS(variables_start(&flash.dev), EFI_SUCCESS);
	EXPECT(props->RuntimeServicesSupported & EFI_RT_SUPPORTED_GET_VARIABLE);
	EXPECT(props->RuntimeServicesSupported & EFI_RT_SUPPORTED_SET_VARIABLE);
	EXPECT(props->RuntimeServicesSupported & EFI_RT_SUPPORTED_GET_NEXT_VARIABLE_NAME);
	EXPECT(props->RuntimeServicesSupported & EFI_RT_SUPPORTED_QUERY_VARIABLE_INFO);
	EXPECT_STATUS(rt->GetVariable(u"PlatformLangCodes", &gv, &attributes, &size, buf),
		      EFI_SUCCESS);
	EXPECT_EQ(size, 6);
	EXPECT_STATUS(rt->SetVariable(u"Glue", &g,
				      EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS,
				      4, "glue"),
		      EFI_SUCCESS);
	/* Starting again (a new flash contents view) keeps what is on flash. */
	ASSERT_STATUS(variables_start(&flash.dev), EFI_SUCCESS);
	size = sizeof(buf);
	EXPECT_STATUS(rt->GetVariable(u"Glue", &g, NULL, &size, buf), EFI_SUCCESS);
	EXPECT(!memcmp(buf, "glue", 4));
	EXPECT_EQ(tpl_current(), TPL_APPLICATION);
}

struct move {
	UINT8 *from, *to;
	UINTN size;
	int converted;
};

static void move_pointer(void **pointer, void *ctx)
{
	struct move *m = ctx;
	UINT8 *p = *pointer;

	if (p >= m->from && p < m->from + m->size) {
		*pointer = m->to + (p - m->from);
		m->converted++;
	}
}

/* What SetVirtualAddressMap does to the service: its memory moves, the converted pointers
 * follow it, and the old copy is no longer used. */
TEST(var_service_convert_covers_every_pointer)
{
	struct nor_sim flash;
	struct var_service svc;
	EFI_GUID g = test_var_guid(4);
	UINTN size = var_service_mem_size(VARSTORE_REGION_SIZE);
	UINT8 *old_mem = aligned_alloc(16, size), *new_mem = aligned_alloc(16, size);
	struct move m = {old_mem, new_mem, size, 0};
	UINT8 buf[8];
	UINTN got = sizeof(buf);

	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	ASSERT_STATUS(var_service_init(&svc, &flash.dev, old_mem, size, 0), EFI_SUCCESS);
	ASSERT_STATUS(var_set(&svc, u"Moved", &g, 6, 4, "vol!"), EFI_SUCCESS);
	ASSERT_STATUS(var_set(&svc, u"Kept", &g, 3, 4, "nv!!"), EFI_SUCCESS);
	memcpy(new_mem, old_mem, size);
	var_service_convert(&svc, move_pointer, &m);
	EXPECT_EQ(m.converted, 4); /* two indexes, the volatile RAM, authenticated writes' memory */
	memset(old_mem, 0xaa, size);
	EXPECT_STATUS(var_get(&svc, u"Moved", &g, NULL, &got, buf), EFI_SUCCESS);
	EXPECT(!memcmp(buf, "vol!", 4));
	got = sizeof(buf);
	EXPECT_STATUS(var_get(&svc, u"Kept", &g, NULL, &got, buf), EFI_SUCCESS);
	EXPECT_STATUS(var_set(&svc, u"After", &g, 6, 4, "new!"), EFI_SUCCESS);
	free(old_mem);
	free(new_mem);
	nor_free(&flash);
}
