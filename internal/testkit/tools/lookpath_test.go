package tools_test

import (
	"os/exec"
	"strings"
)

func lookPath(command string) (string, error) { return exec.LookPath(strings.Fields(command)[0]) }
