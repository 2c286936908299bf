//go:build !linux

package ocitest

import "syscall"

func procAttr() *syscall.SysProcAttr { return nil }
