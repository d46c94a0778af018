((lambda (x) x)
  (f (g)))
