@echo -off
echo "unterminated
echo syntax.nsh goes on
