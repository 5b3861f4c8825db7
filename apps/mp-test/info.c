/* GetNumberOfProcessors, GetProcessorInfo and WhoAmI on the BSP. */
#define APP_TEST_SUITE "10_info"
#include "mp_test.h"

APP_TEST(count_and_whoami)
{
	UINTN n = 0, enabled = 0, who = 99;

	CHECK_STATUS(mp->GetNumberOfProcessors(mp, &n, &enabled), EFI_SUCCESS);
	CHECK_EQ(n, cpu_count);
	CHECK_EQ(enabled, cpu_count);
	CHECK_STATUS(mp->GetNumberOfProcessors(mp, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(mp->GetNumberOfProcessors(mp, NULL, &enabled), EFI_INVALID_PARAMETER);
	CHECK_STATUS(mp->GetNumberOfProcessors(mp, &n, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(mp->WhoAmI(mp, &who), EFI_SUCCESS);
	CHECK_EQ(who, 0);
	CHECK_STATUS(mp->WhoAmI(mp, NULL), EFI_INVALID_PARAMETER);
}

static bool same_place(const EFI_PROCESSOR_INFORMATION *a, const EFI_PROCESSOR_INFORMATION *b)
{
	return a->Location.Package == b->Location.Package && a->Location.Core == b->Location.Core &&
	       a->Location.Thread == b->Location.Thread;
}

static void check_one(UINTN i, EFI_PROCESSOR_INFORMATION *info)
{
	UINT32 want = PROCESSOR_ENABLED_BIT | PROCESSOR_HEALTH_STATUS_BIT;
	EFI_PROCESSOR_INFORMATION ext;

	if (!CHECK_STATUS(mp->GetProcessorInfo(mp, i, info), EFI_SUCCESS))
		return;
	CHECK_EQ(info->StatusFlag, want | (i == 0 ? PROCESSOR_AS_BSP_BIT : 0));
	app_print("  processor %u: APIC ID %u, package %u core %u thread %u\n", (unsigned)i,
		  (unsigned)info->ProcessorId, info->Location.Package, info->Location.Core,
		  info->Location.Thread);
	mem_set(&ext, 0xaa, sizeof(ext));
	if (!CHECK_STATUS(mp->GetProcessorInfo(mp, i | CPU_V2_EXTENDED_TOPOLOGY, &ext),
			  EFI_SUCCESS))
		return;
	CHECK_EQ(ext.ProcessorId, info->ProcessorId);
	CHECK_EQ(ext.ExtendedInformation.Location2.Package, info->Location.Package);
	CHECK_EQ(ext.ExtendedInformation.Location2.Core, info->Location.Core);
	CHECK_EQ(ext.ExtendedInformation.Location2.Thread, info->Location.Thread);
}

APP_TEST(processor_info)
{
	EFI_PROCESSOR_INFORMATION info[MP_TEST_MAX_CPUS], one;

	for (UINTN i = 0; i < cpu_count; i++)
		check_one(i, &info[i]);
	CHECK_EQ(info[0].ProcessorId, current_apic_id());
	for (UINTN i = 0; i < cpu_count; i++)
		for (UINTN j = i + 1; j < cpu_count; j++) {
			CHECK(info[i].ProcessorId != info[j].ProcessorId);
			CHECK(!same_place(&info[i], &info[j]));
		}
	CHECK_STATUS(mp->GetProcessorInfo(mp, cpu_count, &one), EFI_NOT_FOUND);
	CHECK_STATUS(mp->GetProcessorInfo(mp, 0, NULL), EFI_INVALID_PARAMETER);
}
