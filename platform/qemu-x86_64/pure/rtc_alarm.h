/* The CMOS RTC's alarm registers (1, 3, 5: seconds, minutes, hours) as EFI_TIME fields, in
 * the encoding register B selects (BCD or binary, 12- or 24-hour), and the rule of what
 * the alarm can hold: no date registers on QEMU (its FADT gives no day or month alarm),
 * so a wake-up time must fall within the next 24 hours. Pure logic, no port I/O. */
#ifndef EMBER_RTC_ALARM_H
#define EMBER_RTC_ALARM_H

#include <stdbool.h>
#include <efi/runtime_services.h>

#define RTC_REG_B_24H 0x02
#define RTC_REG_B_BINARY 0x04
#define RTC_REG_B_AIE 0x20
#define RTC_REG_C_AF 0x20

struct rtc_alarm_regs {
	UINT8 second, minute, hour;
};

/* The register values that make the alarm ring at time's hour, minute and second. */
void rtc_alarm_encode(const EFI_TIME *time, UINT8 reg_b, struct rtc_alarm_regs *regs);

/* Sets time's Hour, Minute and Second from the registers; false when a register holds
 * no valid value for its field (a "don't care" value or a bad digit). */
bool rtc_alarm_decode(const struct rtc_alarm_regs *regs, UINT8 reg_b, EFI_TIME *time);

/* Whether an alarm on hour, minute and second alone rings at `alarm`: it lies after
 * `now` and at most 24 hours later (time zones are ignored: both are RTC time). */
bool rtc_alarm_reachable(const EFI_TIME *now, const EFI_TIME *alarm);

#endif
