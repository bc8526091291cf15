# a first argument that names nothing: no such file, not "cannot open the rule file"
$KTF nosuch-trace.bin
