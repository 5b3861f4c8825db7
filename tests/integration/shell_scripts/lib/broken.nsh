@echo -off
echo broken never runs
if a == a then
echo no endif
