module {
  func.func private @neuronfuse.mul_red_sqrt.impl_1(%arg0: tensor<16xf64>) -> tensor<f64> {
    %0 = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f64>} : () -> tensor<f64>
    %1 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<16xf64>, tensor<16xf64>) -> tensor<16xf64>
    %2 = "stablehlo.reduce"(%1, %0) ({
    ^bb0(%arg1: tensor<f64>, %arg2: tensor<f64>):
      %4 = "stablehlo.add"(%arg1, %arg2) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%4) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<16xf64>, tensor<f64>) -> tensor<f64>
    %3 = "stablehlo.sqrt"(%2) : (tensor<f64>) -> tensor<f64>
    return %3 : tensor<f64>
  }
  func.func @l2norm_region1(%arg0: tensor<16xf64>) -> tensor<f64> {
    %0 = "stablehlo.composite"(%arg0) {composite_attributes = {reduce_dims = array<i64: 0>}, decomposition = @neuronfuse.mul_red_sqrt.impl_1, name = "neuronfuse.mul_red_sqrt", version = 1 : i32} : (tensor<16xf64>) -> tensor<f64>
    return %0 : tensor<f64>
  }
}

