; A Church-style "twice" in CPS: twice f = λx. f (f x). 0-CFA merges the two calls of f, so the
; continuations of both flow together.
((lambda (twice succ halt)
   (twice succ (lambda (g) (g halt (lambda (w) (halt w))))))
 (lambda (f k) (k (lambda (x c) (f x (lambda (y) (f y c))))))
 (lambda (n c) (c n))
 (lambda (v) (v v v)))
