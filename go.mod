module github.com/foreachio/foreach

go 1.26
