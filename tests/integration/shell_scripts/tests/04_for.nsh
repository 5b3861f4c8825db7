@echo -off
# for loops: lists, counting, steps, nesting, wildcards
for %a in red "light green" blue
  echo colour %a
endfor
for %i run (1 3)
  echo count %i
endfor
for %i run (10 0 -4)
  echo down %i
endfor
for %i run (3 1)
  echo implicit down %i
endfor
for %x in a b
  for %y run (1 2)
    echo %x%y
  endfor
endfor
for %f in \lib\*.nsh
  echo script %f
endfor
for %e in
  echo never
endfor
echo loops done
