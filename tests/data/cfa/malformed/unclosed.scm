((lambda (x) (x x))
